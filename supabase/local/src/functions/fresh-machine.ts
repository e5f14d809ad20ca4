import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface FreshDenoEnv {
  /** DENO_DIR (a new, empty directory) and NPM_CONFIG_REGISTRY (a port that hangs up). */
  env: { DENO_DIR: string; NPM_CONFIG_REGISTRY: string };
  /** Closes the registry stand-in and deletes the cache directory. */
  close(): Promise<void>;
}

/**
 * What Deno sees on a machine that has just run `npm ci` behind a proxy it cannot pass: an
 * empty cache and an npm registry that answers nothing. Here the real registry is reachable, so
 * without this a download at run time would succeed silently; with it, it fails loudly.
 */
export async function freshDenoEnv(): Promise<FreshDenoEnv> {
  const denoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shortlane-deno-dir-'));
  const registry = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    registry.once('error', reject);
    registry.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = registry.address() as net.AddressInfo;
  return {
    env: { DENO_DIR: denoDir, NPM_CONFIG_REGISTRY: `http://127.0.0.1:${port}/` },
    close: async () => {
      await new Promise<void>((resolve) => registry.close(() => resolve()));
      fs.rmSync(denoDir, { recursive: true, force: true });
    },
  };
}

/** Files Deno downloaded into `denoDir`: npm packages and remote (https:, jsr:) modules. */
export function downloadedFiles(denoDir: string): string[] {
  return ['npm', 'remote'].flatMap((folder) => {
    const root = path.join(denoDir, folder);
    if (!fs.existsSync(root)) return [];
    return fs
      .readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name));
  });
}
