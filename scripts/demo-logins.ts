/**
 * The demo accounts supabase/seeds/10_accounts.sql creates (see the list at its top); printed by
 * `npm start`. Keep the two in step.
 */
export const DEMO_PASSWORD = 'password123';

export const DEMO_LOGINS = [
  { who: 'free plan', email: 'free@shortlane.test' },
  { who: 'Pro, yearly, active', email: 'paid@shortlane.test' },
  { who: 'Pro, on trial', email: 'trial@shortlane.test' },
  { who: 'past-due trial', email: 'pastdue@shortlane.test' },
  { who: 'staff (kiosk)', email: 'staff@shortlane.test' },
  { who: 'owner of organization Acme', email: 'owner@shortlane.test' },
  { who: 'Acme user, Analyst role', email: 'orguser@shortlane.test' },
  { who: 'team admin (Marketing)', email: 'admin@shortlane.test' },
  { who: 'team member (Marketing)', email: 'member@shortlane.test' },
  { who: 'team viewer (Marketing)', email: 'viewer@shortlane.test' },
  { who: 'e-mail not confirmed', email: 'unverified@shortlane.test' },
].map((login) => ({ ...login, password: DEMO_PASSWORD }));
