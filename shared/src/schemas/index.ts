export * from './rules.ts';
export * from './files.ts';
export * from './link.ts';
export * from './utm-preset.ts';
export * from './auth.ts';
export * from './profile.ts';
export * from './invitation.ts';
export * from './team.ts';
