import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../supabase/local/src/config.ts';

/**
 * The edge functions' npm packages are pinned three times, and the three must agree:
 * supabase/functions/deno.json's import map (what `supabase functions deploy` bundles), the root
 * package.json's `dependencies` with package-lock.json (what `npm ci` installs and Deno reads
 * from node_modules here), and supabase/functions/deno.lock (the deploy's transitive versions).
 */

const readJson = <T>(file: string): T =>
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')) as T;

const denoJson = readJson<{ imports: Record<string, string> }>('supabase/functions/deno.json');
const packageJson = readJson<{ dependencies: Record<string, string> }>('package.json');
const packageLock = readJson<{
  packages: Record<string, { version?: string; integrity?: string }>;
}>('package-lock.json');
const denoLock = readJson<{ npm: Record<string, { integrity: string }> }>(
  'supabase/functions/deno.lock',
);

/** `npm:@scope/name@1.2.3` → name and version; undefined for anything else. */
function npmSpecifier(specifier: string): { name: string; version: string } | undefined {
  const match = /^npm:(@?[^@]+)@(.+)$/.exec(specifier);
  return match ? { name: match[1]!, version: match[2]! } : undefined;
}

describe('edge function dependencies', () => {
  const imports = Object.entries(denoJson.imports);

  it('are npm packages at exact versions, never fetched from elsewhere', () => {
    for (const [alias, specifier] of imports) {
      const pinned = npmSpecifier(specifier);
      expect(pinned, `${alias}: ${specifier}`).toBeDefined();
      expect(pinned?.version, `${alias}: ${specifier}`).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  it('are the root package.json dependencies, at the same versions, installed by npm ci', () => {
    const fromImportMap = Object.fromEntries(
      imports.map(([, specifier]) => {
        const { name, version } = npmSpecifier(specifier)!;
        return [name, version];
      }),
    );
    expect(packageJson.dependencies).toEqual(fromImportMap);
    for (const [name, version] of Object.entries(fromImportMap)) {
      expect(packageLock.packages[`node_modules/${name}`]?.version, name).toBe(version);
    }
  });

  it('resolve to the same packages for deploy (deno.lock) as for npm ci (package-lock.json)', () => {
    const locked = Object.entries(denoLock.npm);
    expect(locked.length).toBeGreaterThan(0);
    for (const [key, { integrity }] of locked) {
      // `name@version`, with `_peer@version` suffixes for peer-dependency variants.
      const at = key.indexOf('@', 1);
      const name = key.slice(0, at);
      const version = key.slice(at + 1).split('_')[0];
      const installed = Object.entries(packageLock.packages).filter(([where]) =>
        where.endsWith(`node_modules/${name}`),
      );
      expect(
        installed.some(([, entry]) => entry.version === version && entry.integrity === integrity),
        `${key} in deno.lock is not what package-lock.json installs (npm run lock:functions)`,
      ).toBe(true);
    }
  });
});
