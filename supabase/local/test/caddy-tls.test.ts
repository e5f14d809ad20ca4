import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitFor } from '../src/ports.ts';
import { type ManagedProcess, spawnManaged } from '../src/processes.ts';

/**
 * The production TLS front (deploy/), run for real: Debian's `caddy` with its internal CA in
 * place of Let's Encrypt, importing the site of deploy/redirect.caddy (rewrite to the function
 * `r`, Host for the upstream, the visitor's host in X-Forwarded-Host) in front of this stack's
 * gateway, and asking r's TLS ask endpoint before each new certificate. A customer's verified
 * domain gets a certificate and redirects over HTTPS; an unknown host, or a customer's domain
 * still pending verification, gets no certificate, so no handshake.
 *
 * Without a `caddy` binary the file is skipped, except on CI (.ci/run installs it).
 */

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const SITE = path.join(REPO_ROOT, 'deploy/redirect.caddy');
const ASK_PATH = '/functions/v1/r/.well-known/tls-ask';

const caddyInstalled = spawnSync('caddy', ['version'], { stdio: 'ignore' }).status === 0;
const onCi = process.env.CI === 'true';
if (!caddyInstalled && !onCi)
  console.warn('caddy-tls.test.ts skipped: no `caddy` binary (apt-get install caddy).');

const env = inject('stackEnv');
const db = new pg.Client({ connectionString: env.DB_URL });
const suffix = Math.random().toString(36).slice(2, 8);
const DOMAIN = `tls${suffix}.example`;
const UNKNOWN = `unknown-${suffix}.example`;
const PENDING = `pending-${suffix}.example`;
const ALIAS = `tls-${suffix}`;
const DESTINATION = 'https://example.com/over-tls?from=caddy';

let dir = '';
let caddy: ManagedProcess | undefined;
const caddyLog: string[] = [];
let httpsPort = 0;
let rootCa = '';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Answer {
  status: number;
  location: string | undefined;
  /** The names the server's certificate is for (its subjectAltName). */
  names: string;
}

/** A browser's request to https://<host>/<path>, over Caddy's port, trusting Caddy's root. */
function visit(host: string, pathname: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: '127.0.0.1',
        port: httpsPort,
        servername: host,
        path: pathname,
        headers: { host: `${host}:${httpsPort}` },
        ca: rootCa,
        agent: false,
      },
      (response) => {
        const names = (response.socket as TLSSocket).getPeerCertificate().subjectaltname ?? '';
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, location: response.headers.location, names }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

function caddyfile(httpPort: number): string {
  const gateway = new URL(env.SUPABASE_URL);
  return `{
	admin off
	local_certs
	skip_install_trust
	storage file_system ${path.join(dir, 'storage')}
	http_port ${httpPort}
	https_port ${httpsPort}
	on_demand_tls {
		ask http://127.0.0.1:${gateway.port}${ASK_PATH}
	}
}

https:// {
	import ${SITE}
}
`;
}

describe.skipIf(!caddyInstalled && !onCi)('the TLS front (Caddy, on-demand certificates)', () => {
  beforeAll(async () => {
    if (!caddyInstalled) throw new Error('CI must install `caddy` (see .ci/run).');
    await db.connect();
    const { rows } = await db.query<{ accountId: string; userId: string }>(
      `select personal_account_id as "accountId", id as "userId"
       from public.profiles where email = 'free@shortlane.test'`,
    );
    const fran = rows[0]!;
    // Fran's own domains, as the verifier leaves them: one verified, one still pending.
    await db.query(
      `insert into public.domains (domain, kind, account_id, verification_status, verified_at,
         redirect_status)
       values ($1, 'branded', $3, 'verified', now(), 302), ($2, 'branded', $3, 'pending', null, 302)`,
      [DOMAIN, PENDING, fran.accountId],
    );
    await db.query(
      `with long_url as (
         insert into public.long_urls (account_id, url) values ($1, $2)
         on conflict (account_id, md5(url)) do update set updated_at = now() returning id
       )
       insert into public.aliases (long_url_id, account_id, domain_id, alias, created_by, is_main)
       select l.id, $1, d.id, $4, $5, false from long_url l, public.domains d where d.domain = $3`,
      [fran.accountId, DESTINATION, DOMAIN, ALIAS, fran.userId],
    );

    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shortlane-caddy-'));
    httpsPort = await freePort();
    const file = path.join(dir, 'Caddyfile');
    fs.writeFileSync(file, caddyfile(await freePort()));
    caddy = spawnManaged(
      'caddy',
      'caddy',
      ['run', '--config', file, '--adapter', 'caddyfile'],
      {
        cwd: dir,
        env: {
          ...process.env,
          HOME: dir,
          XDG_DATA_HOME: path.join(dir, 'data'),
          XDG_CONFIG_HOME: path.join(dir, 'config'),
          SUPABASE_URL: env.SUPABASE_URL,
        },
      },
      (line) => caddyLog.push(line),
      { output: (line) => caddyLog.push(line) },
    );
    // Ready: the internal CA exists (made at start) and the HTTPS port takes connections.
    const root = path.join(dir, 'storage/pki/authorities/local/root.crt');
    try {
      await waitFor('caddy', async () => {
        if (caddy?.child.exitCode !== null) throw new Error('caddy exited');
        if (!fs.existsSync(root)) return false;
        return new Promise<boolean>((resolve) => {
          const socket = net.connect(httpsPort, '127.0.0.1', () => {
            socket.destroy();
            resolve(true);
          });
          socket.once('error', () => resolve(false));
        });
      });
    } catch (error) {
      throw new Error(`${String(error)}\n${caddyLog.join('\n')}`, { cause: error });
    }
    rootCa = fs.readFileSync(root, 'utf8');
  });

  afterAll(async () => {
    await caddy?.stop(2_000);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    if (!caddyInstalled) return;
    await db.query(
      `delete from public.aliases a using public.domains d
       where a.domain_id = d.id and d.domain = $1`,
      [DOMAIN],
    );
    await db.query('delete from public.domains where domain = any($1)', [[DOMAIN, PENDING]]);
    await db.query(`delete from public.long_urls where url = $1`, [DESTINATION]);
    await db.end();
  });

  it("a customer's verified domain gets a certificate from the CA and redirects over HTTPS", async () => {
    const answer = await visit(DOMAIN, `/${ALIAS}`);
    expect(answer.names).toBe(`DNS:${DOMAIN}`);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(DESTINATION);
    // The root of the domain goes through the same front (no root redirect: the home page).
    expect((await visit(DOMAIN, '/')).status).toBe(200);
  });

  it('an unknown host, or a domain still pending, gets no certificate: the handshake fails', async () => {
    for (const host of [UNKNOWN, PENDING]) {
      await expect(visit(host, `/${ALIAS}`)).rejects.toThrow(/alert/i);
      // Caddy asked r, and r said no: nothing was issued for the host.
      expect(fs.existsSync(path.join(dir, 'storage/certificates/local', host))).toBe(false);
    }
    expect(fs.existsSync(path.join(dir, 'storage/certificates/local', DOMAIN))).toBe(true);
  });
});
