import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withParentDeathSignal } from './processes.ts';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe('withParentDeathSignal', () => {
  it('runs the command as it is where setpriv is missing', () => {
    expect(withParentDeathSignal('postgrest', ['-v'], '/no/such/setpriv')).toEqual({
      command: 'postgrest',
      args: ['-v'],
    });
  });

  it.runIf(process.platform === 'linux' && fs.existsSync('/usr/bin/setpriv'))(
    'ends the child when its parent is killed outright',
    async () => {
      const launch = withParentDeathSignal('sleep', ['60']);
      // A parent that spawns the child, reports its pid, and then waits to be SIGKILLed.
      const parentScript = `
        const { spawn } = require('node:child_process');
        const child = spawn(${JSON.stringify(launch.command)}, ${JSON.stringify(launch.args)}, { stdio: 'ignore' });
        console.log(child.pid);
        setInterval(() => {}, 1000);
      `;
      const parent = spawn(process.execPath, ['-e', parentScript], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const childPid = await new Promise<number>((resolve) =>
        parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
      );
      expect(await waitUntil(() => isAlive(childPid), 2_000)).toBe(true);

      parent.kill('SIGKILL');

      expect(await waitUntil(() => !isAlive(childPid), 5_000)).toBe(true);
    },
  );
});
