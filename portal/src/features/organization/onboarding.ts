/**
 * Organization re-onboarding (app-shell "Organization re-onboarding"): five steps, each skipped
 * when marked done in local storage or when its data already exists. Pure, so the page only
 * gathers the facts and the rules stay tested here.
 */

export const ONBOARDING_STEPS = ['domains', 'users', 'team', 'members', 'done'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

/** What the organization already has, as the current user sees it. */
export interface OnboardingFacts {
  /** Steps 1 and 2 are the owner's only. */
  isOwner: boolean;
  domainCount: number;
  /** Organization users plus pending invitations to the organization. */
  userCount: number;
  teamCount: number;
  /** People on the organization's teams other than the current user (a team's creator joins it). */
  otherTeamMemberCount: number;
}

/** Why a step is skipped, or null when it is to be done. */
export type SkipReason = 'marked_done' | 'owner_only' | 'data_exists' | null;

export function skipReason(
  step: OnboardingStep,
  facts: OnboardingFacts,
  markedDone: ReadonlySet<OnboardingStep>,
): SkipReason {
  if (step === 'done') return null;
  if (markedDone.has(step)) return 'marked_done';
  switch (step) {
    case 'domains':
      if (!facts.isOwner) return 'owner_only';
      return facts.domainCount > 0 ? 'data_exists' : null;
    case 'users':
      if (!facts.isOwner) return 'owner_only';
      return facts.userCount > 0 ? 'data_exists' : null;
    case 'team':
      return facts.teamCount > 0 ? 'data_exists' : null;
    case 'members':
      return facts.otherTeamMemberCount > 0 ? 'data_exists' : null;
  }
}

/** The steps still to walk, in order; 'done' is always last. */
export function remainingSteps(
  facts: OnboardingFacts,
  markedDone: ReadonlySet<OnboardingStep>,
): OnboardingStep[] {
  return ONBOARDING_STEPS.filter((step) => skipReason(step, facts, markedDone) === null);
}

/** Local storage: the steps a person marked done, per organization. */
export const onboardingStorageKey = (organizationId: string) =>
  `shortlane.orgOnboarding.${organizationId}`;

export function readMarkedDone(raw: string | null): Set<OnboardingStep> {
  if (raw == null) return new Set();
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return new Set();
    return new Set(
      parsed.filter((item): item is OnboardingStep =>
        (ONBOARDING_STEPS as readonly unknown[]).includes(item),
      ),
    );
  } catch {
    // A value someone else wrote (or hand-edited): start over rather than fail the page.
    return new Set();
  }
}

export function writeMarkedDone(marked: ReadonlySet<OnboardingStep>): string {
  return JSON.stringify(ONBOARDING_STEPS.filter((step) => marked.has(step)));
}
