/** The demo accounts supabase/seeds creates; printed by `npm start` and listed in the README. */
export const DEMO_LOGINS = [
  { who: 'placeholder', email: 'set from seeds', password: '-' },
] as const;
