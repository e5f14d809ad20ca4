/**
 * bulk-import: link-creation 7's bulk routes (see routes.ts). Signed-in users only; the file
 * (csv, xls, xlsx, ods; 10 MB) is checked and counted at once, its links created in the
 * background (background.ts: EdgeRuntime.waitUntil on Supabase, a tracked promise elsewhere).
 *
 * A job whose process is stopped mid-way (deploy, crash, out-of-memory kill) is not resumed:
 * once it has not moved for ten minutes, the cron job bulk-fail-stalled-jobs (every minute,
 * app.fail_stalled_bulk_jobs) ends it as failed and notifies its owner ("Batch failed", how
 * many of its links were created). Its created
 * links stay and its file stays in the imports bucket; a late chunk of it is refused.
 */
import { bulkImport } from './handler.ts';

Deno.serve(bulkImport);
