/**
 * HTTP load for the benchmarks, open loop: requests leave at a fixed arrival rate whatever the
 * server does, over a pool of keep-alive connections, and each latency runs from the moment the
 * request was due (not when a connection became free), so a stall shows in p99 instead of
 * silently lowering the rate (coordinated omission). A closed loop (N connections, each sending
 * again as soon as it has an answer) measures the ceiling instead; autocannon does that.
 */
import http from 'node:http';
import os from 'node:os';

export interface OpenLoopRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadFigures {
  /** Answers per second over the phase. */
  rate: number;
  p50: number;
  p99: number;
  max: number;
  ok: number;
  failed: number;
  /** The first failure's status and body, to say why. */
  firstFailure?: string;
  loadBefore: string;
  loadAfter: string;
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function exchange(
  agent: http.Agent,
  origin: string,
  request: OpenLoopRequest,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      new URL(request.path, origin),
      { method: request.method, headers: request.headers, agent },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/**
 * Sends `rate` requests per second for `seconds` over `connections` keep-alive connections
 * (requests wait for a free one, and that wait counts), `next(i)` making the i-th request.
 */
export async function openLoop(options: {
  origin: string;
  rate: number;
  seconds: number;
  connections: number;
  next: (index: number) => OpenLoopRequest;
  okStatus: number;
}): Promise<LoadFigures> {
  const { origin, rate, seconds, connections, next, okStatus } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  let ok = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const loadBefore = loadAverage();
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  const send = async (index: number, due: number) => {
    try {
      const answer = await exchange(agent, origin, next(index));
      latencies.push(performance.now() - due);
      if (answer.status === okStatus) ok++;
      else {
        failed++;
        firstFailure ??= `${answer.status} ${answer.text.slice(0, 200)}`;
      }
    } catch (error) {
      failed++;
      firstFailure ??= String(error);
    }
  };
  for (let index = 0; index < total; index++) {
    const due = started + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(send(index, due));
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  return {
    rate: (ok + failed) / elapsed,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
    ok,
    failed,
    firstFailure,
    loadBefore,
    loadAfter: loadAverage(),
  };
}
