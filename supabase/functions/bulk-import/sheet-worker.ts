/// <reference lib="deno.worker" />
/**
 * The worker that reads one spreadsheet (sheet-reader.ts): built-in prototypes frozen before
 * SheetJS loads, one message in, one answer out, then the parent terminates it.
 */
import { readWorkbookGrid } from './sheet-grid.ts';

for (const prototype of [Object.prototype, Array.prototype, Function.prototype]) {
  Object.freeze(prototype);
}

self.onmessage = async (event: MessageEvent<Uint8Array>) => {
  self.postMessage(await readWorkbookGrid(event.data));
};
