import type { OnboardingProgress } from '../../data/onboarding-progress-query.ts';
import { paths } from '../../routes/paths.ts';

export interface GetStartedStep {
  key: keyof OnboardingProgress;
  title: string;
  /** Why the step is worth taking, in a sentence. */
  why: string;
  action: string;
  to: string;
}

/** The checklist, in the order a new user usually takes the steps. */
export const GET_STARTED_STEPS: readonly GetStartedStep[] = [
  {
    key: 'linkCreated',
    title: 'Make your first short link',
    why: 'A short link is easy to share, type and print, and tells you who followed it.',
    action: 'Make a link',
    to: paths.homepage,
  },
  {
    key: 'clickReceived',
    title: 'Get your first click',
    why: 'Share a link: every visit is counted, so you see where your audience comes from.',
    action: 'See your links',
    to: paths['my-urls'],
  },
  {
    key: 'domainAdded',
    title: 'Add a domain of your own',
    why: 'Links on your own domain look trustworthy and carry your brand.',
    action: 'Add a domain',
    to: paths['settings.brandedDomains'],
  },
  {
    key: 'twoFactorEnabled',
    title: 'Turn on two-factor authentication',
    why: 'A code from your phone keeps your links safe even if your password leaks.',
    action: 'Open security settings',
    to: paths['settings.security'],
  },
  {
    key: 'teamInvited',
    title: 'Invite your team',
    why: 'Work on links together, each person with the rights they need.',
    action: 'Invite a team member',
    to: paths['settings.teams'],
  },
];

export function countDone(progress: OnboardingProgress): number {
  return GET_STARTED_STEPS.filter((step) => progress[step.key]).length;
}
