import { ANTI_ROBOT } from '@shortlane/shared/constants.ts';

/**
 * Anti-robot errors are shown at most once per 60 s (link-creation 8, 9): a widget that keeps
 * failing must not flood the form. One gate per page, shared by every create form on it.
 */
export function createErrorGate(intervalMs: number, now: () => number = Date.now) {
  let lastShownAt: number | null = null;
  return {
    /** True when an error may be shown now (and records that it was). */
    allow(): boolean {
      const at = now();
      if (lastShownAt != null && at - lastShownAt < intervalMs) return false;
      lastShownAt = at;
      return true;
    },
  };
}

export const antiRobotErrorGate = createErrorGate(ANTI_ROBOT.errorDebounceMs);
