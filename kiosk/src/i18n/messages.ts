/**
 * The kiosk's own messages, beside react-admin's and ra-supabase's. Notices name one of these
 * keys (with its arguments) rather than carrying finished English, so every text on screen
 * goes through the i18n provider. Polyglot's `%{name}` interpolates; `smart_count` picks the
 * singular or the plural (`||||`).
 */
export const KIOSK_MESSAGES = {
  'kiosk.notice.failed': '%{message}',
  'kiosk.users.banned': 'User banned',
  'kiosk.users.unbanned': 'User unbanned',
  'kiosk.users.mfa_reset':
    'Two-factor authentication reset (%{smart_count} factor removed) |||| Two-factor authentication reset (%{smart_count} factors removed)',
  'kiosk.users.impersonating': 'The portal opened as %{email}',
  'kiosk.users.preview_changed': 'Preview features saved',
  'kiosk.api_tokens.revoked': 'API token revoked: %{name}',
  'kiosk.zones.synced': '%{smart_count} zone synced |||| %{smart_count} zones synced',
  'kiosk.zones.deleted': 'Zone deleted',
  'kiosk.zones.created': 'Zone created: set its name servers at the registrar',
  'kiosk.billing.cancelled': 'Subscription cancelled',
  'kiosk.billing.refunded': 'Order refunded',
  'kiosk.billing.refund_pending': 'Refund requested: the order is refunded once Paddle approves it',
  'kiosk.sso.verified': 'Domain verified for single sign-on',
} as const;

export type KioskMessageKey = keyof typeof KIOSK_MESSAGES;

/** A notice to show: a message key and what it interpolates. */
export interface KioskNotice {
  message: KioskMessageKey;
  args?: Record<string, unknown>;
}
