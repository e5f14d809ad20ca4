/**
 * bulk-import: link-creation 7's bulk routes (see routes.ts). Signed-in users only; the file
 * (csv, xls, xlsx, ods; 10 MB) is checked and counted at once, its links created in the
 * background (background.ts: EdgeRuntime.waitUntil on Supabase, a tracked promise elsewhere).
 *
 * Known limit: a job whose process is stopped mid-way (deploy, crash) stays `processing`; its
 * created links stay and its file is in the imports bucket, but nothing resumes it.
 */
import { bulkImport } from './handler.ts';

Deno.serve(bulkImport);
