import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from '../../supabase/local/src/config.ts';

/**
 * Proxies that do less than the gateway, put between the load and PostgREST by
 * `bench:stack -- --rest` in the same rounds: what one proxy hop on the REST path costs this
 * machine whatever runs it. A bare Node socket pipe (socket-pipe.ts: no HTTP at all) always;
 * HAProxy when it is installed (Debian's `haproxy`, not a dependency of the project), in HTTP
 * mode with the header work a gateway does (the client's address set, the apikey dropped, CORS).
 */
export interface FloorProxy {
  label: string;
  port: number;
  child: ChildProcess;
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => resolve(true)).once('error', () => resolve(false));
    socket.unref();
    setTimeout(() => socket.destroy(), 1_000).unref();
  });

/** Resolves once `child` takes connections on `port`; throws if it stops or is too slow. */
async function ready(child: ChildProcess, name: string, port: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await canConnect(port))) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode})`);
    if (Date.now() > deadline) throw new Error(`${name} did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function nodePipe(port: number, targetPort: number): Promise<FloorProxy> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'bench', 'support', 'socket-pipe.ts'),
      String(port),
      String(targetPort),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await ready(child, 'the socket pipe', port);
  return { label: 'through a bare pipe', port, child };
}

function haproxyBinary(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v haproxy']).toString().trim() || undefined;
  } catch {
    return undefined;
  }
}

async function haproxy(
  binary: string,
  port: number,
  targetPort: number,
  stateDir: string,
): Promise<FloorProxy> {
  const configFile = path.join(stateDir, 'bench-haproxy.cfg');
  fs.writeFileSync(
    configFile,
    [
      'global',
      '  nbthread 1',
      'defaults',
      '  mode http',
      '  timeout connect 5s',
      '  timeout client 30s',
      '  timeout server 30s',
      `frontend rest`,
      `  bind 127.0.0.1:${port}`,
      '  http-request set-header x-forwarded-for %[src]',
      '  http-request set-header x-real-ip %[src]',
      '  http-request del-header apikey',
      '  http-response set-header access-control-allow-origin *',
      '  default_backend postgrest',
      'backend postgrest',
      '  http-reuse always',
      `  server postgrest 127.0.0.1:${targetPort}`,
      '',
    ].join('\n'),
  );
  // -db: in the foreground (stopped with the bench), not as a daemon.
  const child = spawn(binary, ['-db', '-f', configFile], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await ready(child, 'HAProxy', port);
  return { label: 'through HAProxy', port, child };
}

/** The floor proxies for one stack, on ports `basePort` and up. */
export async function startFloorProxies(
  basePort: number,
  postgrestPort: number,
  stateDir: string,
): Promise<FloorProxy[]> {
  const proxies = [await nodePipe(basePort, postgrestPort)];
  const binary = haproxyBinary();
  if (binary) proxies.push(await haproxy(binary, basePort + 1, postgrestPort, stateDir));
  return proxies;
}
