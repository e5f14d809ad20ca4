/** The domain flags staff set in the kiosk (public.domains columns), with their labels. */
export const DOMAIN_FLAGS = [
  { source: 'allow_for_guests', label: 'Guests may use it' },
  { source: 'guest_can_use_custom_alias', label: 'Guests may choose an alias' },
  { source: 'require_email_verification', label: 'Needs a verified e-mail' },
  { source: 'subscribed_only', label: 'Subscribers only' },
  { source: 'is_blocked', label: 'Blocked' },
  { source: 'is_disabled', label: 'Disabled' },
] as const;

/** The form's "Verified" toggle over verification_status. */
export const verifiedFormat = (status: unknown) => status === 'verified';
export const verifiedParse = (checked: boolean) => (checked ? 'verified' : 'pending');

/**
 * What the domain edit form saves: the flags, and a change of verification as the table keeps
 * it (the status with its time, which the table requires together).
 */
export function domainChanges(
  values: Record<string, unknown>,
  previous: Record<string, unknown> | undefined,
  now: Date = new Date(),
): Record<string, unknown> {
  const changes: Record<string, unknown> = Object.fromEntries(
    DOMAIN_FLAGS.map(({ source }) => [source, values[source] === true]),
  );
  const status = values.verification_status;
  if (status !== previous?.verification_status) {
    changes.verification_status = status;
    changes.verified_at = status === 'verified' ? now.toISOString() : null;
  }
  return changes;
}
