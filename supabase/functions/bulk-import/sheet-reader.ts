/**
 * Reads the first sheet of an xls, xlsx or ods workbook into a grid of display strings, with
 * SheetJS 0.20.3 (Apache-2.0). SheetJS publishes releases after 0.18.5 only on its own CDN; npm
 * `@e965/xlsx` republishes them under another name, so npm ci installs it from the lockfile.
 * The last `xlsx` on npm, 0.18.5, has two advisories for reading untrusted files, both fixed by
 * 0.20.2: prototype pollution through crafted files (CVE-2023-30533) and a regular expression
 * denial of service (CVE-2024-22363); sheet-grid.test.ts keeps the version at 0.20.2 or later. The file is still untrusted input to a large parser, so the precautions stay:
 *
 * - callers hand over only files that passed the size limit, the magic-byte check and (for zip
 *   archives) the zip-bomb guard;
 * - the reader runs in a Web Worker of its own, created per file and terminated after it: a
 *   polluted prototype dies with the worker's realm, and the worker freezes the built-in
 *   prototypes before loading SheetJS, so pollution attempts fail there too;
 * - a time limit: a worker still reading after SPREADSHEET_READ_TIMEOUT_MS is terminated and the
 *   file refused;
 * - SheetJS is asked for cached cell values only (no formula parsing; it never evaluates
 *   formulas), the first sheet only, and at most MAX_ROWS + 1 rows and MAX_COLUMNS columns.
 *
 * Where the runtime has no Worker (Supabase's edge runtime does not offer it to functions), the
 * same read runs in-process, time-limited only by the request; see readInProcess.
 */
import { FILE_MESSAGES, FileRefusal } from './file-refusal.ts';
import { SPREADSHEET_READ_TIMEOUT_MS } from './limits.ts';
import { readWorkbookGrid, type SheetAnswer } from './sheet-grid.ts';

export type SheetType = 'xls' | 'xlsx' | 'ods';

function answerToGrid(answer: SheetAnswer): string[][] {
  if (answer.ok) return answer.grid;
  throw new FileRefusal(FILE_MESSAGES[answer.reason]);
}

function readInWorker(bytes: Uint8Array): Promise<string[][]> {
  const worker = new Worker(new URL('./sheet-worker.ts', import.meta.url), { type: 'module' });
  return new Promise<string[][]>((resolve, reject) => {
    const timer = setTimeout(() => {
      worker.terminate();
      reject(new FileRefusal(FILE_MESSAGES.unreadable));
    }, SPREADSHEET_READ_TIMEOUT_MS);
    const finish = () => {
      clearTimeout(timer);
      worker.terminate();
    };
    worker.onmessage = (event: MessageEvent<SheetAnswer>) => {
      finish();
      try {
        resolve(answerToGrid(event.data));
      } catch (error) {
        reject(error);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish();
      reject(new FileRefusal(FILE_MESSAGES.unreadable));
    };
    // A copy goes to the worker: the caller keeps its bytes (they are uploaded afterwards).
    worker.postMessage(bytes.slice());
  });
}

async function readInProcess(bytes: Uint8Array): Promise<string[][]> {
  return answerToGrid(await readWorkbookGrid(bytes));
}

export function readSpreadsheet(bytes: Uint8Array): Promise<string[][]> {
  return typeof Worker === 'function' ? readInWorker(bytes) : readInProcess(bytes);
}
