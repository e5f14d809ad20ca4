import pg from 'pg';

/**
 * The hosts the gateway hands to the `r` function: every row of public.domains (the function
 * answers disabled or unknown ones itself). Kept in memory so that routing a request costs no
 * database round trip: loaded at start, reloaded when the domains table announces a change
 * (NOTIFY short_domains, migration 001100) and every `refreshMs` in case a notification was
 * lost while the connection was down.
 */
export interface ShortDomains {
  has(host: string): boolean;
  /** Reloads now (tests that add a domain need not wait). */
  refresh(): Promise<void>;
  stop(): Promise<void>;
}

export const SHORT_DOMAINS_CHANNEL = 'short_domains';

export async function watchShortDomains(
  connectionString: string,
  log: (line: string) => void,
  refreshMs = 30_000,
): Promise<ShortDomains> {
  let hosts = new Set<string>();
  let client: pg.Client | undefined;
  let stopped = false;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const load = async (from: pg.Client) => {
    const { rows } = await from.query<{ domain: string }>('select domain from public.domains');
    hosts = new Set(rows.map((row) => row.domain));
  };

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString });
    next.on('notification', () => {
      load(next).catch((error: unknown) => log(`short domains: reload failed: ${String(error)}`));
    });
    next.on('error', (error) => {
      log(`short domains: connection lost (${error.message}); reconnecting`);
      void next.end().catch(() => undefined);
      if (client === next) client = undefined;
      if (!stopped) reconnectTimer = setTimeout(() => void connect().catch(retry), 1_000);
    });
    await next.connect();
    await next.query(`listen ${SHORT_DOMAINS_CHANNEL}`);
    await load(next);
    client = next;
  };
  const retry = (error: unknown) => {
    log(`short domains: ${String(error)}; retrying`);
    if (!stopped) reconnectTimer = setTimeout(() => void connect().catch(retry), 1_000);
  };

  await connect();
  const refresh = async () => {
    if (client) await load(client);
  };
  const timer = setInterval(() => {
    refresh().catch((error: unknown) => log(`short domains: reload failed: ${String(error)}`));
  }, refreshMs);
  timer.unref();

  return {
    has: (host) => hosts.has(host),
    refresh,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      clearTimeout(reconnectTimer);
      await client?.end().catch(() => undefined);
    },
  };
}
