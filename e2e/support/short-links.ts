import http from 'node:http';
import { parseShortUrlBase, shortUrl } from '../../shared/src/short-url.ts';
import { localShortUrlBase } from '../../supabase/local/src/functions/local-env.ts';
import { stackEnv } from './stack.ts';

/**
 * A desktop browser's User-Agent. Clicks from headless Chromium ("HeadlessChrome") or from
 * scripts without one are counted as robots and left out of analytics; visits that stand for a
 * person send this.
 */
export const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A link's short URL on the running stack, as the portal and the functions build it. */
export function stackShortUrl(domain: string, alias: string): string {
  return shortUrl({ domain, alias }, parseShortUrlBase(localShortUrlBase(stackEnv().SUPABASE_URL)));
}

/**
 * Opens a short URL as a visitor's browser would: `*.localhost` names are loopback (RFC 6761;
 * Node and Chromium here do not resolve them), so the request goes to 127.0.0.1 on the URL's own
 * port with the URL's host as its Host. Answers where it redirects.
 */
export function openShortUrl(
  address: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; location: string | undefined }> {
  const url = new URL(address);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: `${url.pathname}${url.search}`,
        headers: { host: url.host, 'user-agent': DESKTOP_CHROME, accept: 'text/html', ...headers },
      },
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

/** Opens the link `host`/`alias` at its short URL on the running stack. */
export function openShortLink(
  host: string,
  alias: string,
): Promise<{ status: number; location: string | undefined }> {
  return openShortUrl(stackShortUrl(host, alias));
}

/**
 * Serves a browser's request for a short URL from the stack (for `page.route`): the same
 * loopback request as openShortUrl, with the browser's own headers (DNT, cookies…) and a desktop
 * browser's User-Agent (headless Chromium's is a robot's), answered as the stack answered it.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export function fetchShortUrl(
  address: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  const url = new URL(address);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, host: url.host, 'user-agent': DESKTOP_CHROME },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const answered: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            // The body is handed over whole: the connection's own framing does not apply.
            if (HOP_BY_HOP.has(name)) continue;
            if (value !== undefined)
              answered[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          resolve({
            status: response.statusCode ?? 0,
            headers: answered,
            body: Buffer.concat(chunks),
          });
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}
