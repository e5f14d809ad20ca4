import { userScope } from '../keys.ts';

/** Outgoing webhooks: the accounts the user manages them for; of one account: its endpoints, each one's secret, and the delivery log. */
export const webhookKeys = {
  all: (userId: string) => [...userScope(userId), 'webhooks'] as const,
  accounts: (userId: string) => [...webhookKeys.all(userId), 'accounts'] as const,
  endpoints: (userId: string, accountId: string) =>
    [...webhookKeys.all(userId), accountId, 'endpoints'] as const,
  secret: (userId: string, endpointId: string) =>
    [...webhookKeys.all(userId), 'secret', endpointId] as const,
  deliveries: (userId: string, accountId: string) =>
    [...webhookKeys.all(userId), accountId, 'deliveries'] as const,
};

/** The event types an endpoint may subscribe to (app.webhook_event_types). */
export const WEBHOOK_EVENTS = [
  'link.created',
  'link.updated',
  'link.deleted',
  'link.clicked',
  'bulk.completed',
  'domain.verified',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
