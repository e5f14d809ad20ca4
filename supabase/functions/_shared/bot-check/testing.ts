/**
 * Test support: a loopback HTTP server standing in for siteverify, recording what it was sent.
 * Real HTTP, so the adapter's request encoding, timeouts and error handling are exercised.
 */

export interface SiteverifyCall {
  path: string;
  contentType: string | null;
  fields: Record<string, string>;
}

export interface SiteverifyStub {
  url: string;
  origin: string;
  calls: SiteverifyCall[];
  close(): Promise<void>;
}

export function siteverifyStub(
  answer: (call: SiteverifyCall) => Response | Promise<Response>,
): SiteverifyStub {
  const calls: SiteverifyCall[] = [];
  const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => {} }, async (req) => {
    const call: SiteverifyCall = {
      path: new URL(req.url).pathname,
      contentType: req.headers.get('content-type'),
      fields: Object.fromEntries(new URLSearchParams(await req.text())),
    };
    calls.push(call);
    return answer(call);
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { url: `${origin}/siteverify`, origin, calls, close: () => server.shutdown() };
}

/** Silences the operator log for one test and hands back what was logged. */
export async function quietly<T>(
  work: () => T | Promise<T>,
): Promise<{ value: T; logged: string[] }> {
  const logged: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args.map(String).join(' '));
  try {
    return { value: await work(), logged };
  } finally {
    console.error = original;
  }
}
