import fs from 'node:fs';
import path from 'node:path';
import type { FunctionCatalog } from './catalog.ts';
import type { FunctionProcesses } from './processes.ts';

// Deno rewrites its lockfile itself when it resolves a new import: reacting would loop.
const IGNORED = new Set(['deno.lock', 'node_modules']);
// Editors save in bursts (temp file, rename, chmod); one reload per burst.
const SETTLE_MS = 100;

/**
 * Dev reload: a change inside `<name>/` reloads that function; a change anywhere else in the
 * functions folder (`_shared/`, deno.json, .env) reloads them all; a change to config.toml
 * re-reads the functions' settings. Returns the function that stops watching.
 */
export function watchFunctionSources(
  catalog: FunctionCatalog,
  processes: FunctionProcesses,
  log: (line: string) => void,
): () => void {
  const pending = new Map<string, { file: string; timer: NodeJS.Timeout }>();
  const ALL = '';

  const schedule = (target: string, file: string) => {
    clearTimeout(pending.get(target)?.timer);
    const timer = setTimeout(() => {
      pending.delete(target);
      log(`functions: ${file} changed; reloading ${target === ALL ? 'every function' : target}`);
      const done = target === ALL ? processes.reloadAll() : processes.reload(target);
      done.catch((error: unknown) => log(`functions: reload failed: ${String(error)}`));
    }, SETTLE_MS);
    pending.set(target, { file, timer });
  };

  const watchers: fs.FSWatcher[] = [];
  if (fs.existsSync(catalog.dir)) {
    const sources = fs.watch(catalog.dir, { recursive: true }, (_event, filename) => {
      if (!filename) return schedule(ALL, 'a file');
      const parts = filename.split(path.sep);
      if (parts.some((part) => IGNORED.has(part))) return;
      const [first = ''] = parts;
      const isFunctionFolder = parts.length > 1 && catalog.exists(first);
      schedule(isFunctionFolder ? first : ALL, filename);
    });
    watchers.push(sources);
  }
  const configDir = path.dirname(catalog.configFile);
  if (fs.existsSync(configDir)) {
    const config = fs.watch(configDir, (_event, filename) => {
      if (filename !== path.basename(catalog.configFile)) return;
      try {
        catalog.reloadSettings();
        log(`functions: ${catalog.configFile} changed; settings re-read`);
      } catch (error) {
        log(`functions: ${String(error instanceof Error ? error.message : error)}`);
      }
    });
    watchers.push(config);
  }
  for (const watcher of watchers)
    watcher.on('error', (error) => log(`functions: watching failed: ${error.message}`));

  return () => {
    for (const watcher of watchers) watcher.close();
    for (const { timer } of pending.values()) clearTimeout(timer);
    pending.clear();
  };
}
