/**
 * `npx tsx bench/bundle.ts`: builds the portal and prints how much JavaScript, gzipped, a browser
 * must fetch before the first page can start: the entry chunk and everything it imports
 * statically (lazy route chunks come later and are listed apart). Target: under 250 kB.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Manifest } from 'vite';
import { REPO_ROOT } from '../supabase/local/src/config.ts';

const TARGET_BYTES = 250 * 1000;
const portalDir = path.join(REPO_ROOT, 'portal');

/** The entry chunk and its static imports, each once, in load order. */
function initialChunks(manifest: Manifest): string[] {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  if (!entry) throw new Error('The build manifest names no entry chunk.');
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  visit(entry[0]);
  return [...seen];
}

/** Chunks only loaded through dynamic import() (code-split routes), not already initial. */
function lazyChunks(manifest: Manifest, initial: Set<string>): string[] {
  return Object.entries(manifest)
    .filter(([key, chunk]) => chunk.isDynamicEntry && !initial.has(key))
    .map(([key]) => key);
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

async function main() {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shortlane-portal-build-'));
  try {
    await build({
      root: portalDir,
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true, manifest: true, sourcemap: false },
    });
    const manifest = JSON.parse(
      fs.readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8'),
    ) as Manifest;

    const sizeOf = (key: string) => {
      const bytes = fs.readFileSync(path.join(outDir, manifest[key]!.file));
      return { file: manifest[key]!.file, raw: bytes.length, gzip: gzipSync(bytes).length };
    };

    const initial = initialChunks(manifest);
    const rows = initial.map(sizeOf);
    const total = rows.reduce((sum, row) => sum + row.gzip, 0);

    console.log('Portal: JavaScript loaded before the first page (gzip)');
    for (const row of rows) {
      console.log(`  ${row.file.padEnd(44)} ${kB(row.gzip).padStart(10)}  (${kB(row.raw)} raw)`);
    }
    console.log(`  ${'total'.padEnd(44)} ${kB(total).padStart(10)}  target < ${kB(TARGET_BYTES)}`);

    console.log('Lazy route chunks (gzip), fetched when their page is first opened:');
    for (const row of lazyChunks(manifest, new Set(initial)).map(sizeOf)) {
      console.log(`  ${row.file.padEnd(44)} ${kB(row.gzip).padStart(10)}`);
    }

    if (total >= TARGET_BYTES) {
      console.error(`Over target by ${kB(total - TARGET_BYTES)}.`);
      process.exitCode = 1;
    }
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
