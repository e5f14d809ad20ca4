import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnManaged } from '../processes.ts';
import type { FunctionCatalog } from './catalog.ts';
import { NO_DOWNLOADS, runtimeEnv } from './deno.ts';
import { localFunctionEnv } from './local-env.ts';

/** The function's process ended or never listened: Supabase's BOOT_ERROR. */
export class BootError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BootError';
  }
}

const WATCHDOG = fileURLToPath(new URL('./parent-watchdog.js', import.meta.url));
const RELAY_SHIM = fileURLToPath(new URL('./relay-shim.js', import.meta.url));
// Generous: a first start transpiles every module into an empty DENO_DIR, on a busy CI machine.
const BOOT_TIMEOUT_MS = 60_000;

interface FunctionProcess {
  /** Resolves to the loopback port once the function's Deno.serve accepts connections. */
  ready: Promise<number>;
  port?: number;
  /** The relay shim's Unix socket (relay-shim.js), for a function whose connections are relayed. */
  relaySocket?: string;
  /** SIGTERM, then SIGKILL if it still runs `killAfterMs` later (see spawnManaged). */
  stop(killAfterMs?: number): Promise<void>;
}

export interface FunctionProcessesOptions {
  deno: string;
  catalog: FunctionCatalog;
  /** What Supabase's runtime gives every function: SUPABASE_URL, keys, SUPABASE_DB_URL. */
  functionEnv: Record<string, string>;
  /** Our own variables' local values, each given only where nothing real sets it (local-env.ts). */
  localDefaults: Readonly<Record<string, string>>;
  log: (line: string) => void;
  /** Functions the gateway relays whole connections to (relay.ts), and the shim's settings. */
  relay?: RelaySettings;
}

/** What relay-shim.js is told (JSON in SHORTLANE_RELAY, which it removes from the env). */
export interface RelaySettings {
  functions: ReadonlySet<string>;
  /** Proves an announcement line came from the gateway's relay (random per stack). */
  secret: string;
  /** STACK_TRUSTED_PROXIES, as the gateway reads it (client-address.ts). */
  trustedProxies: string;
  /** Put on every relayed answer, as the gateway puts its CORS headers on the others. */
  responseHeaders: Readonly<Record<string, string>>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A fresh path for a relay shim's Unix socket: in the temporary directory (the only one functions
 * may write to, and short enough for a socket's path), unique to this stack and start.
 */
function relaySocketPath(name: string): string {
  return path.join(
    os.tmpdir(),
    `shortlane-relay-${process.pid}-${name}-${crypto.randomBytes(6).toString('hex')}.sock`,
  );
}

function accepts(where: number | string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket =
      typeof where === 'number'
        ? net.connect({ port: where, host: '127.0.0.1' })
        : net.connect({ path: where });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * One Deno process per function, as `deno run` of its index.ts with DENO_SERVE_ADDRESS on a
 * loopback port: started on the function's first request, reused while warm, started afresh
 * after it exits or is reloaded. Requests never wait for functions nobody calls.
 */
export class FunctionProcesses {
  private running = new Map<string, FunctionProcess>();
  private stopped = false;

  constructor(private readonly options: FunctionProcessesOptions) {}

  /** The port of the process serving `name` if it is warm (no promise to wait on). */
  portOf(name: string): number | undefined {
    return this.running.get(name)?.port;
  }

  /** The relay shim's socket of the warm process serving `name`, if it is relayed. */
  relaySocketOf(name: string): string | undefined {
    return this.running.get(name)?.relaySocket;
  }

  /** The port of the warm process serving `name`, starting one if needed. */
  acquire(name: string): Promise<number> {
    let instance = this.running.get(name);
    if (!instance) {
      instance = this.launch(name);
      this.running.set(name, instance);
    }
    return instance.ready;
  }

  /** Ends the process serving `name`; its next request runs the sources as they are now. */
  async reload(name: string, killAfterMs?: number): Promise<void> {
    const instance = this.running.get(name);
    if (!instance) return;
    this.running.delete(name);
    await instance.stop(killAfterMs);
  }

  /**
   * Drops the process that failed a request on `port`, as edge-runtime drops a worker that
   * errored: the next request boots a fresh one instead of finding a dying process.
   */
  async retire(name: string, port: number): Promise<void> {
    if (this.running.get(name)?.port === port) await this.reload(name);
  }

  async reloadAll(killAfterMs?: number): Promise<void> {
    await Promise.all([...this.running.keys()].map((name) => this.reload(name, killAfterMs)));
  }

  /**
   * Sends every process SIGTERM, which a function may handle to finish its work (the `r`
   * function writes its buffered clicks), and kills those still running `killAfterMs` later.
   */
  async stopAll(killAfterMs?: number): Promise<void> {
    this.stopped = true;
    await this.reloadAll(killAfterMs);
  }

  private relayed(name: string): boolean {
    return this.options.relay?.functions.has(name) ?? false;
  }

  private denoArgs(name: string): string[] {
    const { dir } = this.options.catalog;
    const denoJson = path.join(dir, 'deno.json');
    const dotEnv = path.join(dir, '.env');
    return [
      'run',
      // Edge functions may use the network, read env and files, and write only temporary files.
      '--allow-net',
      '--allow-env',
      '--allow-read',
      '--allow-sys',
      `--allow-write=${os.tmpdir()}`,
      '--no-prompt',
      ...NO_DOWNLOADS,
      '--preload',
      WATCHDOG,
      ...(this.relayed(name) ? ['--preload', RELAY_SHIM] : []),
      ...(fs.existsSync(denoJson) ? ['--config', denoJson] : ['--no-config']),
      // Deno never lets the file override variables already set: SUPABASE_* stay the stack's.
      ...(fs.existsSync(dotEnv) ? [`--env-file=${dotEnv}`] : []),
      this.options.catalog.entrypoint(name),
    ];
  }

  private relayEnv(name: string, socketPath: string): string {
    const { secret, trustedProxies, responseHeaders } = this.options.relay!;
    return JSON.stringify({
      path: socketPath,
      secret,
      trustedProxies,
      prefix: `/${name}`,
      responseHeaders,
    });
  }

  private launch(name: string): FunctionProcess {
    const { deno, catalog, functionEnv, localDefaults, log } = this.options;
    let stopProcess: (killAfterMs?: number) => Promise<void> = async () => {};
    const forget = () => {
      if (this.running.get(name) === instance) this.running.delete(name);
    };
    const boot = async (): Promise<number> => {
      const port = await freePort();
      const relaySocket = this.relayed(name) ? relaySocketPath(name) : undefined;
      // Reloaded or stopped while the port was being chosen: spawn nothing that could linger.
      if (this.stopped || this.running.get(name) !== instance)
        throw new BootError(`${name} was stopped while starting`);
      const started = Date.now();
      const managed = spawnManaged(
        `functions/${name}`,
        deno,
        this.denoArgs(name),
        {
          cwd: path.dirname(catalog.entrypoint(name)),
          env: {
            ...runtimeEnv(),
            // Read at each start, so a functions/.env edited meanwhile takes precedence.
            ...localFunctionEnv(path.join(catalog.dir, '.env'), localDefaults),
            ...functionEnv,
            DENO_SERVE_ADDRESS: `tcp:127.0.0.1:${port}`,
            ...(relaySocket === undefined
              ? {}
              : { SHORTLANE_RELAY: this.relayEnv(name, relaySocket) }),
          },
        },
        log,
      );
      stopProcess = managed.stop;
      let ended: string | undefined;
      managed.child.once('error', (error) => {
        ended = error.message;
        forget();
      });
      managed.child.once('exit', (code, signal) => {
        ended = signal ?? `code ${code}`;
        forget();
        // Deno leaves its Unix socket's file behind.
        if (relaySocket !== undefined) fs.rmSync(relaySocket, { force: true });
      });
      const deadline = started + BOOT_TIMEOUT_MS;
      const serving = async () =>
        (await accepts(port)) && (relaySocket === undefined || (await accepts(relaySocket)));
      while (!(await serving())) {
        if (ended) throw new BootError(`${name} ended (${ended}) before serving`);
        if (Date.now() > deadline) {
          await managed.stop();
          throw new BootError(`${name} did not serve within ${BOOT_TIMEOUT_MS / 1000} s`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      log(`functions/${name}: serving on :${port} (booted in ${Date.now() - started} ms)`);
      instance.port = port;
      instance.relaySocket = relaySocket;
      return port;
    };
    // `boot` reads `instance` only after its first await, once the object exists.
    const instance: FunctionProcess = {
      ready: boot(),
      stop: (killAfterMs) => stopProcess(killAfterMs),
    };
    instance.ready.catch(forget);
    return instance;
  }
}
