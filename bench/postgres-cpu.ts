/**
 * CPU time spent by a local PostgreSQL server, read from /proc (Linux): every process the
 * postmaster started (client backends, WAL writer, checkpointer, background writer, autovacuum
 * workers…) and the postmaster itself. Children that ended between two samples (an autovacuum
 * worker, a closed connection) are counted too, through the postmaster's cutime/cstime.
 * Live processes are read at nanosecond resolution (/proc/<pid>/schedstat), ended ones at clock
 * ticks. The server must run on this machine; its postmaster is found as the parent of the
 * given connection's backend.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type pg from 'pg';

const NS_PER_TICK = 1e9 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

interface Sample {
  /** Nanoseconds on CPU so far of each live child of the postmaster. */
  children: Map<number, number>;
  /** Postmaster's own CPU and that of its ended children (ns). */
  postmaster: number;
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces). */
function statFields(pid: number): string[] | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // ended meanwhile
  }
}

/** Nanoseconds on CPU of a live process, or null once it has ended. */
export function processCpuNs(pid: number): number | null {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return null;
  }
}

export class PostgresCpu {
  readonly #postmaster: number;

  private constructor(postmaster: number) {
    this.#postmaster = postmaster;
  }

  /** The server `db` is connected to (a local one). */
  static async of(db: pg.Client): Promise<PostgresCpu> {
    const { rows } = await db.query<{ pid: number }>('select pg_backend_pid() as pid');
    const fields = statFields(rows[0]!.pid);
    if (!fields) throw new Error('PostgresCpu: the server is not on this machine');
    // Field 4 of stat is the parent pid; fields here start at field 3 (state).
    return new PostgresCpu(Number(fields[1]));
  }

  sample(): Sample {
    const children = new Map<number, number>();
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      if (Number(statFields(pid)?.[1]) !== this.#postmaster) continue;
      const ns = processCpuNs(pid);
      if (ns !== null) children.set(pid, ns);
    }
    const own = statFields(this.#postmaster);
    if (!own) throw new Error('PostgresCpu: the postmaster has ended');
    // utime, stime, cutime, cstime are fields 14-17.
    const ticks = own.slice(11, 15).reduce((sum, field) => sum + Number(field), 0);
    return { children, postmaster: ticks * NS_PER_TICK };
  }

  /** Nanoseconds all of the server's processes spent on CPU since `start`. */
  since(start: Sample): number {
    const end = this.sample();
    let total = end.postmaster - start.postmaster;
    for (const [pid, ns] of end.children) total += ns - (start.children.get(pid) ?? 0);
    // An ended child's whole life is in the postmaster's cutime/cstime: take off what it had
    // already spent at the start.
    for (const [pid, ns] of start.children) if (!end.children.has(pid)) total -= ns;
    return total;
  }
}
