import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';
import { createAuthService } from './auth/index.ts';
import { createCaptchaSandbox } from './captcha-sandbox.ts';
import { createDnsSandboxApi } from './dns-sandbox/api.ts';
import { dnsSandboxEnv } from './dns-sandbox/env.ts';
import { startDnsServer } from './dns-sandbox/server.ts';
import { ZoneStore } from './dns-sandbox/zones.ts';
import { startCronRunner } from './cron/runner.ts';
import { databaseUrl, gatewayUrl, mailboxUrl, type StackConfig } from './config.ts';
import { drainable } from './drain.ts';
import { startFunctions } from './functions.ts';
import { setUpExtensions } from './extensions.ts';
import {
  createGateway,
  listen,
  restRelayRules,
  SHORT_DOMAIN_FUNCTION,
  type GatewayServices,
} from './gateway.ts';
import { createGatewayFront } from './gateway-front.ts';
import { createRestRelay } from './rest-relay.ts';
import { serveWebRequest } from './http.ts';
import { Mailbox } from './mail.ts';
import { migrate, type MigrationReport } from './migrate.ts';
import { assertPortFree } from './ports.ts';
import { startDatabase } from './postgres.ts';
import { startPostgrest } from './postgrest.ts';
import { startNetWorker } from './net/worker.ts';
import { allowPrivateWebhookDestinations, writeLocalWebhookSettings } from './webhook-settings.ts';
import { watchShortDomains } from './short-domains.ts';
import { createStorageService, syncConfigBuckets } from './storage/index.ts';
import { createSamlIdpSandbox } from './saml-idp/index.ts';
import { loadOrCreateSigningPair } from './signing-keys.ts';
import { createStripeSandbox } from './stripe-sandbox/index.ts';
import { stripeSandboxEnv } from './stripe-sandbox/env.ts';
import { createPaddleSandbox } from './paddle-sandbox/index.ts';
import { paddleSandboxEnv } from './paddle-sandbox/env.ts';
import { createRegistrarSandbox } from './registrar-sandbox/index.ts';
import { registrarSandboxEnv } from './registrar-sandbox/env.ts';

export interface RunningStack {
  env: StackEnv;
  migrations: MigrationReport;
  mailbox: Mailbox;
  /** Stops every service in dependency order (see startStack). */
  stop(): Promise<void>;
}

export interface StackEnv {
  SUPABASE_URL: string;
  SUPABASE_ANON_KEY: string;
  SUPABASE_SERVICE_ROLE_KEY: string;
  SUPABASE_JWT_SECRET: string;
  DB_URL: string;
  MAILBOX_URL: string;
  STRIPE_SECRET_KEY: string;
  STRIPE_WEBHOOK_SECRET: string;
  STRIPE_API_BASE: string;
  PADDLE_API_KEY: string;
  PADDLE_WEBHOOK_SECRET: string;
  PADDLE_API_BASE: string;
  /** What the portal gives Paddle.js: the client-side token and the stand-in script. */
  PADDLE_CLIENT_TOKEN: string;
  PADDLE_SCRIPT_URL: string;
  /** The DNS sandbox's name server, host:port. */
  DNS_NAME_SERVER: string;
  DNS_SANDBOX_API: string;
  /** The registrar adapter's Name.com API: the stack's registrar sandbox and its credentials. */
  REGISTRAR_API_URL: string;
  REGISTRAR_USERNAME: string;
  REGISTRAR_TOKEN: string;
  /** The sandbox SAML identity provider's metadata (what an organization registers for SSO). */
  SAML_IDP_METADATA_URL: string;
}

export const stackEnvFile = (config: StackConfig) => path.join(config.stateDir, 'stack.env');

export function readStackEnv(config: StackConfig): StackEnv | undefined {
  const file = stackEnvFile(config);
  if (!fs.existsSync(file)) return undefined;
  const entries = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.match(/^([A-Z_]+)=(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => [m[1], m[2]]);
  return Object.fromEntries(entries) as StackEnv;
}

/**
 * Starts every service in dependency order. If any step fails, whatever already started is
 * stopped again before the error propagates: a failed start leaves nothing running.
 *
 * A stop runs the other way round, so that no click is lost: the gateway stops accepting
 * connections and finishes the requests in flight; the functions router does the same, and the
 * function processes get SIGTERM (the `r` function writes the clicks it holds, then exits); then
 * the pools, PostgREST and, last, Postgres. The first two steps share one deadline,
 * `config.stopTimeoutMs` from the start of the stop: requests still running then are cut and
 * function processes killed. PostgREST and Postgres, idle by then, stop in well under a second
 * (each is killed if it still runs 5 s, resp. 15 s, after its signal).
 */
export async function startStack(
  config: StackConfig,
  log: (line: string) => void,
): Promise<RunningStack> {
  /** Each step is told the graceful part's deadline (epoch ms); most have nothing to drain. */
  const stops: ((deadline: number) => Promise<void>)[] = [];
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      const started = Date.now();
      const deadline = started + config.stopTimeoutMs;
      for (const stop of stops.reverse())
        await stop(deadline).catch((error: unknown) => log(`stop failed: ${String(error)}`));
      stops.length = 0;
      log(`Stopped in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    })());
  try {
    await assertPortFree(config.gatewayPort, 'API gateway');
    await assertPortFree(config.mailPort, 'mail catcher');
    fs.mkdirSync(config.stateDir, { recursive: true });
    fs.rmSync(stackEnvFile(config), { force: true });

    const database = await startDatabase(config, log);
    stops.push(database.stop);
    const extensions = await setUpExtensions(database.url, { embedded: database.embedded });
    const migrations = await migrate(database.url, {
      seed: config.seed,
      plainExtensions: extensions.plain,
    });
    await writeLocalWebhookSettings(database.url, {
      gatewayUrl: gatewayUrl(config),
      serviceRoleKey: config.serviceRoleKey,
      allowPrivateDestinations: allowPrivateWebhookDestinations(process.env),
    });
    // Supabase Cron's and pg_net's workers, where the stand-ins (not the real ones) are installed.
    if (extensions.standIns.includes('pg_cron')) {
      const cron = await startCronRunner({ url: database.url, log });
      stops.push(cron.stop);
    }
    if (extensions.standIns.includes('pg_net')) {
      const net = await startNetWorker({
        url: database.url,
        allowedHosts: config.netAllowedHosts,
        log,
      });
      stops.push(net.stop);
    }

    const postgrest = await startPostgrest(config, log);
    stops.push(postgrest.stop);

    const authPool = new pg.Pool({
      connectionString: databaseUrl(config, 'supabase_auth_admin'),
      max: 10,
    });
    const storagePool = new pg.Pool({
      connectionString: databaseUrl(config, 'supabase_storage_admin'),
      max: 10,
    });
    stops.push(
      () => authPool.end(),
      () => storagePool.end(),
    );
    // As `supabase start` does after migrations: the buckets config.toml declares exist.
    const buckets = await syncConfigBuckets(storagePool);
    if (buckets.length > 0) log(`Storage buckets from config.toml: ${buckets.join(', ')}`);

    const mailbox = new Mailbox();
    const mailServer = http.createServer((req, res) => {
      void serveWebRequest(req, res, mailboxUrl(config), mailbox.handler);
    });
    const drainMail = drainable(mailServer);
    await listen(mailServer, config.mailPort);
    stops.push(drainMail);

    const functions = await startFunctions(config, log);
    if (functions) stops.push(functions.stop);
    const shortDomains = await watchShortDomains(database.url, log);
    stops.push(shortDomains.stop);

    const stripeEnv = stripeSandboxEnv(gatewayUrl(config));
    const stripe = createStripeSandbox({
      publicUrl: stripeEnv.STRIPE_API_BASE,
      secretKey: stripeEnv.STRIPE_SECRET_KEY,
      // As `stripe listen --forward-to localhost:54321/functions/v1/stripe-webhook`.
      webhooks: [
        {
          url: `${gatewayUrl(config)}/functions/v1/stripe-webhook`,
          secret: stripeEnv.STRIPE_WEBHOOK_SECRET,
        },
      ],
      delivery: { retryDelaysMs: config.stripeWebhookRetryDelaysMs, log },
      checkoutExpirySeconds: config.stripeCheckoutExpirySeconds,
    });
    stops.push(() => stripe.stop());

    const paddleEnv = paddleSandboxEnv(gatewayUrl(config));
    const paddle = createPaddleSandbox({
      publicUrl: paddleEnv.PADDLE_API_BASE,
      apiKey: paddleEnv.PADDLE_API_KEY,
      clientToken: paddleEnv.PADDLE_CLIENT_TOKEN,
      // A notification destination for the stack's own paddle-webhook function.
      webhooks: [
        {
          url: `${gatewayUrl(config)}/functions/v1/paddle-webhook`,
          secret: paddleEnv.PADDLE_WEBHOOK_SECRET,
        },
      ],
      delivery: { retryDelaysMs: config.paddleWebhookRetryDelaysMs, log },
      refundApprovalMs: config.paddleRefundApprovalMs,
    });
    stops.push(() => paddle.stop());

    const dnsEnv = dnsSandboxEnv(gatewayUrl(config), config.dnsPort);
    const zones = new ZoneStore();
    const dnsServer = await startDnsServer(zones, config.dnsPort, log);
    stops.push(() => dnsServer.stop());

    const registrarEnv = registrarSandboxEnv(gatewayUrl(config));
    // Kept in the state dir, as the database keeps the orders that name its domains.
    const registrar = createRegistrarSandbox({
      username: registrarEnv.REGISTRAR_USERNAME,
      token: registrarEnv.REGISTRAR_TOKEN,
      stateFile: path.join(config.stateDir, 'registrar-sandbox.json'),
    });

    const samlIdpUrl = `${gatewayUrl(config)}/sandbox/saml-idp`;
    const samlIdp = createSamlIdpSandbox({
      publicUrl: samlIdpUrl,
      pair: await loadOrCreateSigningPair(
        path.join(config.stateDir, 'saml-idp'),
        'idp',
        'Shortlane sandbox identity provider',
      ),
    });

    const isShortDomain = (host: string) => shortDomains.has(host);
    const services: GatewayServices = {
      auth: createAuthService({ config, pool: authPool, mailer: mailbox }),
      storage: createStorageService({
        config,
        pool: storagePool,
        objectsDir: path.join(config.stateDir, 'storage'),
      }),
      functions: functions?.route,
      isShortDomain,
      captcha: createCaptchaSandbox(),
      stripe: stripe.handler,
      paddle: paddle.handler,
      dns: createDnsSandboxApi(zones, config.serviceRoleKey),
      registrar: registrar.handler,
      samlIdp,
    };
    const gateway = createGateway(config, services);
    const restRelay = createRestRelay({
      rules: restRelayRules(config, services),
      port: config.postgrestPort,
      idleTimeoutMs: gateway.keepAliveTimeout,
    });
    const front = createGatewayFront(gateway, {
      isShortDomain,
      relay: (client, head) => functions.relay(SHORT_DOMAIN_FUNCTION, client, head),
      rest: (client, read, toGateway) => restRelay.take(client, read, toGateway),
    });
    const drainGateway = drainable(gateway);
    await listen(front, config.gatewayPort);
    // Short-link connections are not the gateway's to drain: they end when `r` stops (after
    // this), its relay shim answering what is in flight on them first (functions/relay-shim.js).
    stops.push(async (deadline) => {
      front.close();
      await Promise.all([drainGateway(deadline), restRelay.drain(deadline)]);
    });

    const env: StackEnv = {
      SUPABASE_URL: gatewayUrl(config),
      SUPABASE_ANON_KEY: config.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: config.serviceRoleKey,
      SUPABASE_JWT_SECRET: config.jwtSecret,
      DB_URL: database.url,
      MAILBOX_URL: mailboxUrl(config),
      ...stripeEnv,
      ...paddleEnv,
      DNS_NAME_SERVER: dnsEnv.DNS_NAME_SERVER,
      DNS_SANDBOX_API: dnsEnv.DNS_SANDBOX_API,
      ...registrarEnv,
      SAML_IDP_METADATA_URL: `${samlIdpUrl}/metadata`,
    };
    fs.writeFileSync(
      stackEnvFile(config),
      Object.entries(env)
        .map(([key, value]) => `${key}=${value}`)
        .join('\n') + '\n',
    );
    stops.push(async () => fs.rmSync(stackEnvFile(config), { force: true }));
    return { env, migrations, mailbox, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
