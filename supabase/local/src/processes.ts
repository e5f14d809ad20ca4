import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface ManagedProcess {
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns a child whose output is prefixed into the stack log and which dies with the stack. */
export function spawnManaged(
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions,
  log: (line: string) => void,
): ManagedProcess {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let stopping = false;
  const forward = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) log(`${name}: ${line}`);
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  child.on('exit', (code, signal) => {
    if (!stopping) log(`${name}: exited unexpectedly (${signal ?? `code ${code}`})`);
  });
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
