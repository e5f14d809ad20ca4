import http from 'node:http';
import { stackEnv } from './stack.ts';

/**
 * A desktop browser's User-Agent. Clicks from headless Chromium ("HeadlessChrome") or from
 * scripts without one are counted as robots and left out of analytics; visits that stand for a
 * person send this.
 */
export const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * Opens a short link as a visitor's browser would ask for it (Chromium here does not resolve
 * *.localhost names, so the request goes to the gateway with the short domain as its Host), and
 * answers where it redirects.
 */
export function openShortLink(
  host: string,
  alias: string,
): Promise<{ status: number; location: string | undefined }> {
  const gateway = new URL(stackEnv().SUPABASE_URL);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: gateway.hostname,
        port: gateway.port,
        path: `/${alias}`,
        headers: { host, 'user-agent': DESKTOP_CHROME, accept: 'text/html' },
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
