import { MESSAGES } from '@shortlane/shared/messages.ts';

/** What a refused call says, else the generic text. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return MESSAGES.somethingWentWrong;
}
