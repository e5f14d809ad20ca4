import http from 'node:http';
import { expect, inject } from 'vitest';

/**
 * What the branded domain stack tests share: records set in the DNS sandbox, and a visitor's
 * request on a short domain through the gateway.
 */

const env = inject('stackEnv');

/** Replaces one record set of a zone in the DNS sandbox (its HTTP API, as the service role). */
export async function setDnsRecord(zone: string, name: string, type: string, value: string) {
  const response = await fetch(`${env.DNS_SANDBOX_API}/zones/${zone}/records`, {
    method: 'PUT',
    headers: {
      Authorization: `Bearer ${env.SUPABASE_SERVICE_ROLE_KEY}`,
      apikey: env.SUPABASE_SERVICE_ROLE_KEY,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ name, type, value }),
  });
  expect(response.status).toBe(200);
}

/** A visitor's request on `host`, through the gateway (fetch may not set Host). */
export function visit(host: string, path: string): Promise<{ status: number; location?: string }> {
  const gateway = new URL(env.SUPABASE_URL);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: gateway.hostname, port: gateway.port, path, headers: { host } },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, location: response.headers.location }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/**
 * Visits until the answer is no longer `while` (the gateway's host list and r's cache learn of
 * a domain change by notification, a moment after the commit).
 */
export async function visitSettled(
  host: string,
  path: string,
  settled: (answer: { status: number; location?: string }) => boolean,
  tries = 40,
): Promise<{ status: number; location?: string }> {
  let answer = await visit(host, path);
  for (let n = 0; !settled(answer) && n < tries; n++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await visit(host, path);
  }
  return answer;
}
