/**
 * Edge function `r`: every request on a short domain (verify_jwt = false: visitors carry no
 * token). Clicks still buffered when the process is told to stop (SIGTERM, SIGINT, or the
 * runtime's beforeunload) are written before it ends.
 */
import { flushOnShutdown } from '../_shared/clicks/buffer.ts';
import { sql } from '../_shared/sql.ts';
import { optionsFromEnv, startRedirector } from './app.ts';

const redirector = await startRedirector({ sql: sql(), ...optionsFromEnv() });
// The local runtime sends SIGKILL 5 s after SIGTERM: the last writes get 4 s.
flushOnShutdown(redirector.buffer, { deadlineMs: 4_000 });

Deno.serve(redirector.handler);
