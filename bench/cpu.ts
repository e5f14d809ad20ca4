/**
 * CPU time per process group, read from /proc (Linux): on a machine shared with other work,
 * wall-clock latency mostly measures the queue for a core, but the CPU each part of the stack
 * spends per request stays put. A group is every process whose command line matches.
 */
import fs from 'node:fs';

const TICKS_PER_SECOND = 100;

export interface CpuGroup {
  name: string;
  matches: (process: { commandLine: string; pid: number; parent: number }) => boolean;
}

interface ProcessCpu {
  pid: number;
  parent: number;
  commandLine: string;
  cpuSeconds: number;
}

function processes(): ProcessCpu[] {
  const found: ProcessCpu[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      // Fields after the command name (which may hold spaces and parentheses): the parent is the
      // line's 4th field, utime the 14th and stime the 15th.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      found.push({
        pid: Number(entry),
        parent: Number(fields[1]),
        commandLine,
        cpuSeconds: ticks / TICKS_PER_SECOND,
      });
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** The pid of the process whose command line holds `text`, if one runs. */
export function pidOf(text: string): number | undefined {
  return processes().find((p) => p.commandLine.includes(text))?.pid;
}

/** CPU seconds per group now; subtract two readings for a phase's share. */
export function cpuReading(groups: CpuGroup[]): Map<string, number> {
  const reading = new Map(groups.map((group) => [group.name, 0]));
  for (const process of processes()) {
    const group = groups.find((g) => g.matches(process));
    if (group) reading.set(group.name, (reading.get(group.name) ?? 0) + process.cpuSeconds);
  }
  return reading;
}

/** "name 1.23 ms" per group: CPU per request between two readings. */
export function cpuPerRequest(
  before: Map<string, number>,
  after: Map<string, number>,
  requests: number,
): string {
  return [...after]
    .map(([name, seconds]) => {
      const perRequest = ((seconds - (before.get(name) ?? 0)) * 1000) / Math.max(requests, 1);
      return `${name} ${perRequest.toFixed(2)} ms`;
    })
    .join(', ');
}
