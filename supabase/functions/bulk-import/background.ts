/**
 * Work that outlives the request that started it. On Supabase's edge runtime,
 * EdgeRuntime.waitUntil keeps the worker alive until the promise settles. Elsewhere (plain Deno,
 * as the local stack runs functions) the process lives on by itself while the work has I/O
 * pending; the promise is kept in a set so that nothing is garbage-collected or unhandled, and a
 * SIGTERM (the stack stopping, a reload) waits up to SHUTDOWN_GRACE_MS for it before exiting.
 * Work cut off anyway leaves its job unfinished until the cron job bulk-fail-stalled-jobs ends
 * it as failed.
 */
const SHUTDOWN_GRACE_MS = 10_000;

interface EdgeRuntimeGlobal {
  waitUntil(promise: Promise<unknown>): void;
}

const pending = new Set<Promise<void>>();
let shutdownHooked = false;

function hookShutdown(): void {
  if (shutdownHooked) return;
  shutdownHooked = true;
  try {
    Deno.addSignalListener('SIGTERM', async () => {
      const grace = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS));
      await Promise.race([Promise.allSettled([...pending]), grace]);
      Deno.exit(0);
    });
  } catch {
    // No signals here (e.g. a sandboxed runtime): waitUntil or nothing.
  }
}

export function runInBackground(work: () => Promise<void>, onError: (error: unknown) => void) {
  const runtime = (globalThis as { EdgeRuntime?: EdgeRuntimeGlobal }).EdgeRuntime;
  const tracked: Promise<void> = work()
    .catch(onError)
    .finally(() => pending.delete(tracked));
  pending.add(tracked);
  if (runtime) runtime.waitUntil(tracked);
  else hookShutdown();
}

/** Resolves when every background task started so far has settled (tests). */
export async function settled(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}
