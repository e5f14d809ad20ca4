import pg from 'pg';

export interface LocalWebhookSettings {
  /** The stack's gateway, where the webhook-deliver function answers. */
  gatewayUrl: string;
  serviceRoleKey: string;
  /** Endpoints on loopback and private addresses pass the destination rule (development). */
  allowPrivateDestinations: boolean;
}

/**
 * What production sets once by hand in app.webhook_settings (migration 20261122002400) and
 * app.domain_verification_settings (20261122004200) and app.billing_schedule_settings
 * (20261122005810), for this stack: where the cron jobs wake the webhook delivery worker, the
 * domain verifier and the billing function, with which key, and the development
 * exception that lets customers' endpoints be receivers on this machine. Written at every start,
 * since the gateway's port changes between stacks.
 */
export async function writeLocalWebhookSettings(
  databaseUrl: string,
  settings: LocalWebhookSettings,
): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `update app.webhook_settings
       set deliver_url = $1, deliver_key = $2, allow_private_destinations = $3`,
      [
        `${settings.gatewayUrl}/functions/v1/webhook-deliver`,
        settings.serviceRoleKey,
        settings.allowPrivateDestinations,
      ],
    );
    // The branded-domain verifier is woken the same way (migration 20261122004200).
    await client.query(
      `update app.domain_verification_settings set verify_url = $1, verify_key = $2`,
      [`${settings.gatewayUrl}/functions/v1/domain-verify`, settings.serviceRoleKey],
    );
    // And the metered overage's reporter (migration 20261122006000).
    await client.query(`update app.overage_settings set report_url = $1, report_key = $2`, [
      `${settings.gatewayUrl}/functions/v1/overage-report`,
      settings.serviceRoleKey,
    ]);
    // So is the billing function, for pending Paddle downgrades (migration 20261122005810).
    await client.query(`update app.billing_schedule_settings set apply_url = $1, apply_key = $2`, [
      `${settings.gatewayUrl}/functions/v1/billing/paddle/scheduled-changes`,
      settings.serviceRoleKey,
    ]);
  } finally {
    await client.end();
  }
}

/**
 * STACK_WEBHOOKS_ALLOW_PRIVATE: on unless `false` — the local stack exists for development, and
 * its tests deliver to receivers on loopback. Production never reads it (its row keeps false).
 */
export function allowPrivateWebhookDestinations(environment: NodeJS.ProcessEnv): boolean {
  return environment.STACK_WEBHOOKS_ALLOW_PRIVATE !== 'false';
}
