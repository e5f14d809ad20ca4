/**
 * The database test harness: connect (useDatabase), isolate (withRollback), act as someone
 * (asActor), set the scene (factories, createCast) and assert refusals and coded errors.
 */
export * from './actors.ts';
export * from './bulk.ts';
export * from './cast.ts';
export * from './db.ts';
export * from './errors.ts';
export * from './factories.ts';
export * from './registrar.ts';
