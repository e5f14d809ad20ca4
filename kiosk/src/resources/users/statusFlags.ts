import { USER_STATUS_FLAGS, type UserStatusFlag } from '@shortlane/shared/constants.ts';

/** The three status bits as the edit form's toggles (the view exposes them as booleans). */
export const STATUS_TOGGLES = [
  { flag: 'noAffiliate', source: 'no_affiliate', label: 'No affiliate' },
  { flag: 'noMailings', source: 'no_mailings', label: 'Does not receive mailings' },
  { flag: 'hideInvoices', source: 'hide_invoices', label: 'Hide invoices' },
] as const satisfies readonly { flag: UserStatusFlag; source: string; label: string }[];

export type StatusToggles = Record<(typeof STATUS_TOGGLES)[number]['source'], boolean>;

/** profiles.status from the toggles: 4 no affiliate, 8 no mailings, 16 hide invoices. */
export function statusFromToggles(toggles: Partial<StatusToggles>): number {
  return STATUS_TOGGLES.reduce(
    (status, { flag, source }) => (toggles[source] ? status | USER_STATUS_FLAGS[flag] : status),
    0,
  );
}

/**
 * What the users edit form saves to profiles: the editable columns, with the toggles folded
 * back into `status`. Everything else the form holds comes from the view and stays behind.
 */
export function profileChanges(values: Record<string, unknown>): Record<string, unknown> {
  return {
    name: typeof values.name === 'string' ? values.name.trim() : '',
    status: statusFromToggles(values as Partial<StatusToggles>),
    is_developer: values.is_developer === true,
    is_survey_enabled: values.is_survey_enabled === true,
  };
}
