import assert from 'node:assert/strict';
import { ClickBuffer, type ClickBufferOptions, flushOnShutdown } from './buffer.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `condition` holds, failing after `ms`. */
async function eventually(condition: () => boolean, ms = 2_000) {
  const until = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > until) throw new Error('condition not met in time');
    await sleep(5);
  }
}

/** A writer that records batches; `failures` makes its next calls reject. */
function recorder() {
  const batches: number[][] = [];
  const state = { failures: 0, calls: 0 };
  const write = (batch: number[]) => {
    state.calls++;
    if (state.failures > 0) {
      state.failures--;
      return Promise.reject(new Error('database unavailable'));
    }
    batches.push(batch);
    return Promise.resolve();
  };
  return { batches, state, write, stored: () => batches.flat() };
}

/**
 * A writer whose first write waits until `release()`, as a database round trip does under load;
 * later writes succeed at once. `batches` lists every batch it was given.
 */
function firstWriteHangs() {
  const batches: number[][] = [];
  let resolveFirst = () => {};
  const write = (batch: number[]) => {
    batches.push(batch);
    if (batches.length > 1) return Promise.resolve();
    return new Promise<void>((resolve) => (resolveFirst = resolve));
  };
  return { batches, write, release: () => resolveFirst() };
}

/** A buffer whose timers will not fire during a test unless the test asks for them. */
function buffer(
  options: Partial<ClickBufferOptions<number>> & Pick<ClickBufferOptions<number>, 'write'>,
) {
  return new ClickBuffer<number>({
    flushIntervalMs: 60_000,
    onWriteError: () => {},
    onDrop: () => {},
    ...options,
  });
}

Deno.test('flush writes everything held, in order, in batches of batchSize', async () => {
  const sink = recorder();
  const clicks = buffer({ write: sink.write, batchSize: 3, capacity: 100 });
  try {
    // Fewer than a batch: nothing is written until asked.
    clicks.push(1);
    clicks.push(2);
    await sleep(20);
    assert.equal(sink.state.calls, 0);
    for (const click of [3, 4, 5, 6, 7]) clicks.push(click);
    assert.equal(await clicks.flush(), true);
    assert.deepEqual(sink.stored(), [1, 2, 3, 4, 5, 6, 7]);
    assert.ok(sink.batches.every((batch) => batch.length <= 3));
    assert.deepEqual(clicks.stats(), {
      queued: 0,
      inFlight: 0,
      written: 7,
      dropped: 0,
      failedWrites: 0,
      batches: sink.batches.length,
    });
  } finally {
    await clicks.close();
  }
});

Deno.test('a full batch is written soon after the push that filled it, not during it', async () => {
  const sink = recorder();
  const clicks = buffer({ write: sink.write, batchSize: 3, capacity: 10 });
  try {
    clicks.push(1);
    clicks.push(2);
    clicks.push(3);
    assert.equal(sink.state.calls, 0, 'push itself never runs the writer');
    await eventually(() => sink.batches.length === 1);
    assert.deepEqual(sink.batches, [[1, 2, 3]]);
  } finally {
    await clicks.close();
  }
});

Deno.test(
  'a drain goes on with whole batches only: a partial remainder waits for its timer',
  async () => {
    const { batches, write, release } = firstWriteHangs();
    const clicks = buffer({ write, batchSize: 3, capacity: 20 });
    try {
      for (const click of [1, 2, 3]) clicks.push(click);
      await eventually(() => batches.length === 1);
      // Arrived during the write: one whole batch and a partial one.
      for (const click of [4, 5, 6, 7, 8]) clicks.push(click);
      release();
      await eventually(() => batches.length === 2);
      await sleep(30);
      assert.deepEqual(batches, [
        [1, 2, 3],
        [4, 5, 6],
      ]);
      assert.equal(clicks.stats().queued, 2);
      // The timer (or a flush) takes it.
      assert.equal(await clicks.flush(), true);
      assert.deepEqual(batches.at(-1), [7, 8]);
    } finally {
      await clicks.close();
    }
  },
);

Deno.test(
  'the timer writes what was queued when it fired, even with a drain already running',
  async () => {
    const { batches, write, release } = firstWriteHangs();
    const clicks = buffer({ write, batchSize: 3, capacity: 20, flushIntervalMs: 20 });
    try {
      for (const click of [1, 2, 3]) clicks.push(click);
      await eventually(() => batches.length === 1);
      clicks.push(4);
      // Ticks while the first write hangs.
      await sleep(60);
      release();
      await eventually(() => batches.length === 2);
      assert.deepEqual(batches, [[1, 2, 3], [4]]);
    } finally {
      await clicks.close();
    }
  },
);

Deno.test('a partial batch is written after flushIntervalMs', async () => {
  const sink = recorder();
  const clicks = buffer({
    write: sink.write,
    batchSize: 100,
    capacity: 100,
    flushIntervalMs: 30,
  });
  try {
    clicks.push(1);
    clicks.push(2);
    const pushed = performance.now();
    await eventually(() => sink.batches.length === 1);
    assert.deepEqual(sink.batches, [[1, 2]]);
    assert.ok(performance.now() - pushed < 1_500);
  } finally {
    await clicks.close();
  }
});

Deno.test('when full, the oldest queued clicks are dropped and counted', async () => {
  const sink = recorder();
  const clicks = buffer({ write: sink.write, batchSize: 3, capacity: 3 });
  try {
    for (const click of [1, 2, 3, 4, 5]) clicks.push(click);
    assert.deepEqual(clicks.stats().queued, 3);
    assert.equal(await clicks.flush(), true);
    assert.deepEqual(sink.stored(), [3, 4, 5]);
    assert.equal(clicks.stats().dropped, 2);
  } finally {
    await clicks.close();
  }
});

Deno.test('lost clicks are reported, a flood of them once per interval', async () => {
  const reports: [number, string][] = [];
  // The writer holds its batch until released, so the buffer stays full meanwhile.
  let release = () => {};
  const clicks = buffer({
    write: () => new Promise<void>((resolve) => (release = resolve)),
    batchSize: 2,
    capacity: 2,
    dropReportIntervalMs: 50,
    onDrop: (lost, reason) => reports.push([lost, reason]),
  });
  for (const click of [1, 2, 3, 4, 5]) clicks.push(click);
  // The first loss is told at once; the next two wait for the interval.
  assert.deepEqual(reports, [[1, 'full']]);
  await sleep(60);
  clicks.push(6);
  assert.deepEqual(reports, [
    [1, 'full'],
    [3, 'full'],
  ]);
  release();
  await clicks.close();
  await sleep(60);
  clicks.push(7);
  assert.deepEqual(reports.slice(2), [[1, 'closed']]);
  assert.equal(clicks.stats().dropped, 5);
  assert.equal(clicks.stats().written, 2);
});

Deno.test('push is constant-time and memory stays bounded under a flood', async () => {
  const sink = recorder();
  const clicks = buffer({ write: sink.write, batchSize: 500, capacity: 1_000 });
  try {
    const floods = 1_000_000;
    const started = performance.now();
    for (let i = 0; i < floods; i++) clicks.push(i);
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 1_000, `a million pushes took ${elapsed.toFixed(0)} ms`);
    const stats = clicks.stats();
    assert.ok(stats.queued + stats.inFlight <= 1_000);
    assert.equal(stats.queued + stats.inFlight + stats.dropped, floods);
    assert.equal(await clicks.flush(), true);
    // The newest thousand survive.
    assert.deepEqual(
      sink.stored(),
      Array.from({ length: 1_000 }, (_, i) => floods - 1_000 + i),
    );
  } finally {
    await clicks.close();
  }
});

Deno.test('a failing writer is retried with backoff and nothing is lost or repeated', async () => {
  const sink = recorder();
  sink.state.failures = 3;
  const errors: number[] = [];
  const clicks = new ClickBuffer<number>({
    write: sink.write,
    batchSize: 2,
    capacity: 10,
    flushIntervalMs: 60_000,
    retryBaseMs: 20,
    onWriteError: (_error, attempt) => errors.push(attempt),
  });
  try {
    for (const click of [1, 2, 3, 4, 5]) clicks.push(click);
    const started = performance.now();
    await eventually(() => sink.stored().length === 5);
    // Waits of 20, 40 and 80 ms between the four attempts at the first batch.
    assert.ok(performance.now() - started >= 130, 'backed off between attempts');
    assert.deepEqual(sink.stored(), [1, 2, 3, 4, 5]);
    assert.deepEqual(errors, [1, 2, 3]);
    assert.equal(clicks.stats().failedWrites, 3);
    assert.equal(clicks.stats().dropped, 0);
  } finally {
    await clicks.close();
  }
});

Deno.test(
  'while the writer fails, the bound still holds: old clicks go, new ones stay',
  async () => {
    const sink = recorder();
    sink.state.failures = Number.POSITIVE_INFINITY;
    const clicks = buffer({
      write: sink.write,
      batchSize: 2,
      capacity: 5,
      retryBaseMs: 10_000,
    });
    try {
      for (let click = 1; click <= 2; click++) clicks.push(click);
      await eventually(() => sink.state.calls === 1); // batch [1, 2] failed, waits for its retry
      for (let click = 3; click <= 20; click++) clicks.push(click);
      const stats = clicks.stats();
      assert.equal(stats.inFlight, 2);
      assert.equal(stats.queued, 3);
      assert.equal(stats.dropped, 15);
      // The writer recovers: the held batch and the newest queued clicks are stored.
      sink.state.failures = 0;
      assert.equal(await clicks.flush(), true);
      assert.deepEqual(sink.stored(), [1, 2, 18, 19, 20]);
    } finally {
      await clicks.close();
    }
  },
);

Deno.test(
  'a batch that keeps failing is dropped after maxAttempts, and capture goes on',
  async () => {
    const sink = recorder();
    sink.state.failures = 3;
    const clicks = buffer({
      write: sink.write,
      batchSize: 2,
      capacity: 10,
      maxAttempts: 3,
    });
    try {
      for (const click of [1, 2, 3]) clicks.push(click);
      assert.equal(await clicks.flush(), false); // attempt 1
      assert.equal(await clicks.flush(), false); // attempt 2
      assert.equal(await clicks.flush(), true); // attempt 3 gives up on [1, 2]; [3] is written
      assert.deepEqual(sink.stored(), [3]);
      assert.deepEqual(clicks.stats(), {
        queued: 0,
        inFlight: 0,
        written: 1,
        dropped: 2,
        failedWrites: 3,
        batches: 1,
      });
    } finally {
      await clicks.close();
    }
  },
);

Deno.test('a writer that hangs never blocks push, and only one write is in flight', async () => {
  let calls = 0;
  let release = () => {};
  const clicks = buffer({
    // The first write hangs until released; later ones succeed.
    write: () => {
      calls++;
      if (calls > 1) return Promise.resolve();
      return new Promise<void>((resolve) => (release = resolve));
    },
    batchSize: 2,
    capacity: 4,
  });
  try {
    clicks.push(1);
    clicks.push(2);
    await eventually(() => calls === 1);
    for (let click = 3; click <= 10; click++) clicks.push(click);
    await sleep(30);
    assert.equal(calls, 1);
    assert.deepEqual(clicks.stats(), {
      queued: 2,
      inFlight: 2,
      written: 0,
      dropped: 6,
      failedWrites: 0,
      batches: 0,
    });
  } finally {
    release();
    await clicks.close();
  }
});

Deno.test(
  'close writes what is left, counts what it could not, and refuses later pushes',
  async () => {
    const sink = recorder();
    const clicks = buffer({ write: sink.write, batchSize: 10, capacity: 10 });
    clicks.push(1);
    clicks.push(2);
    const stats = await clicks.close();
    assert.deepEqual(sink.stored(), [1, 2]);
    clicks.push(3);
    assert.equal(clicks.stats().dropped, 1);
    assert.equal(stats.written, 2);

    const failing = recorder();
    failing.state.failures = Number.POSITIVE_INFINITY;
    const doomed = buffer({
      write: failing.write,
      batchSize: 10,
      capacity: 10,
    });
    doomed.push(1);
    doomed.push(2);
    const lost = await doomed.close();
    assert.equal(lost.dropped, 2);
    assert.equal(lost.queued + lost.inFlight, 0);
  },
);

Deno.test('bad options are refused', () => {
  const write = () => Promise.resolve();
  assert.throws(() => new ClickBuffer({ write, capacity: 0 }), RangeError);
  assert.throws(() => new ClickBuffer({ write, capacity: 10, batchSize: 11 }), /exceeds capacity/);
  assert.throws(() => new ClickBuffer({ write, flushIntervalMs: 0.5 }), RangeError);
});

Deno.test(
  'flushOnShutdown closes the buffer on beforeunload, holding the exit only for work',
  async () => {
    const sink = recorder();
    const clicks = buffer({ write: sink.write, batchSize: 10, capacity: 10 });
    const remove = flushOnShutdown(clicks, { signals: [] });
    try {
      clicks.push(1);
      const first = new Event('beforeunload', { cancelable: true });
      globalThis.dispatchEvent(first);
      assert.equal(first.defaultPrevented, true, 'the exit waits for the write');
      await eventually(() => sink.batches.length === 1);
      assert.deepEqual(sink.stored(), [1]);
      const second = new Event('beforeunload', { cancelable: true });
      globalThis.dispatchEvent(second);
      assert.equal(second.defaultPrevented, false, 'nothing left: the process may end');
    } finally {
      remove();
      await clicks.close();
    }
  },
);

/** Runs a Deno program that buffers clicks and prints each stored batch as a JSON line. */
async function runProgram(body: string, signal?: Deno.Signal) {
  const file = await Deno.makeTempFile({ suffix: '.ts' });
  const bufferModule = new URL('./buffer.ts', import.meta.url).href;
  await Deno.writeTextFile(
    file,
    `import { ClickBuffer, flushOnShutdown } from '${bufferModule}';
const clicks = new ClickBuffer<number>({
  batchSize: 100,
  flushIntervalMs: 60_000,
  write: async (batch) => {
    await new Promise((resolve) => setTimeout(resolve, 20)); // a real write takes a while
    console.log(JSON.stringify(batch));
  },
});
flushOnShutdown(clicks);
${body}`,
  );
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ['run', '--no-config', '--quiet', file],
      stdout: 'piped',
      stderr: 'piped',
    }).spawn();
    if (signal) {
      const reader = child.stdout.getReader();
      let seen = '';
      while (!seen.includes('ready')) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += new TextDecoder().decode(value);
      }
      child.kill(signal);
      let rest = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        rest += new TextDecoder().decode(value);
      }
      const status = await child.status;
      await child.stderr.cancel();
      return { code: status.code, stdout: seen + rest };
    }
    const output = await child.output();
    return {
      code: output.code,
      stdout: new TextDecoder().decode(output.stdout),
    };
  } finally {
    await Deno.remove(file);
  }
}

Deno.test('a process that runs out of work still writes its clicks before it ends', async () => {
  const { code, stdout } = await runProgram('for (const click of [1, 2, 3]) clicks.push(click);');
  assert.equal(code, 0);
  assert.deepEqual(stdout.trim().split('\n'), ['[1,2,3]']);
});

Deno.test('SIGTERM writes the held clicks, then the process exits', async () => {
  const { code, stdout } = await runProgram(
    `for (const click of [7, 8, 9]) clicks.push(click);
console.log('ready');
setInterval(() => {}, 1_000); // a server keeps the process alive until stopped`,
    'SIGTERM',
  );
  assert.equal(code, 0);
  assert.deepEqual(stdout.trim().split('\n'), ['ready', '[7,8,9]']);
});
