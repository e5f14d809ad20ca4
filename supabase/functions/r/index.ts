/**
 * Edge function `r`: every request on a short domain (verify_jwt = false: visitors carry no
 * token). Clicks still buffered when the process is told to stop (SIGTERM, SIGINT, or the
 * runtime's beforeunload) are written before it ends.
 */
import { flushOnShutdown } from '../_shared/clicks/buffer.ts';
import { sql } from '../_shared/sql.ts';
import { optionsFromEnv, startRedirector } from './app.ts';

const redirector = await startRedirector({ sql: sql(), ...optionsFromEnv() });
// The last writes get 4 s: within the local stack's stop timeout (STACK_STOP_TIMEOUT_MS, 10 s by
// default, after which it sends SIGKILL) and edge-runtime's graceful exit timeout (15 s).
flushOnShutdown(redirector.buffer, { deadlineMs: 4_000 });

Deno.serve(redirector.handler);
