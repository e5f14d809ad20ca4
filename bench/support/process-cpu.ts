import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * CPU a process has spent so far, every thread counted (user + system), read from
 * /proc/<pid>/stat (Linux). Clock-tick resolution (10 ms): meant for phases that cost a process
 * seconds. Threaded servers (Node's libuv pool and GC threads, PostgREST's GHC runtime) need
 * this, not a single thread's schedstat.
 */

const NS_PER_TICK = 1e9 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** CPU (user + system, every thread) the process has spent so far, in ns; 0 once it has ended. */
export function processCpuNs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces and parentheses): utime and stime
    // are the line's 14th and 15th fields.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * NS_PER_TICK;
  } catch {
    return 0;
  }
}

/** This process's own CPU so far (user + system, every thread), in ns. */
export function ownCpuNs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
}
