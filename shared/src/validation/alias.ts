/** Custom alias format (data-model contract: alias_invalid). */
import { ERROR_CODES } from '../errors.ts';

export const ALIAS_PATTERN = /^[A-Za-z0-9_-]+$/;

/** An empty alias means "generate one" and is valid; otherwise letters, digits, - and _. */
export function validateAlias(alias: string | null | undefined): string | null {
  if (alias == null || alias === '') return null;
  return ALIAS_PATTERN.test(alias) ? null : ERROR_CODES.alias_invalid.message;
}
