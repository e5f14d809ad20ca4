/**
 * Clicks are captured without slowing the redirect: `push` only puts the click in a fixed-size
 * ring (O(1), never awaits, never throws), and a background drain writes batches through an
 * injected writer, when a batch is full or on a timer. A drain started by a full batch goes on
 * only while whole batches are queued: under a steady stream, the clicks that arrive during a
 * write would otherwise go out as a chain of ever smaller batches (most of them tens of clicks
 * at 20,000 redirects/s), each paying the writer's fixed cost per call; a partial remainder
 * waits for its batch to fill or for the timer, as any partial batch does. Memory is bounded:
 * the ring and the batch being written together never hold more than `capacity` clicks; when
 * full, the oldest queued click is dropped and counted. A failing writer is retried with
 * exponential backoff; a batch that keeps failing is eventually dropped (and counted) so one
 * poisoned batch cannot stall capture forever. On shutdown, `close()` writes what is left (see
 * flushOnShutdown).
 */

export interface ClickBufferOptions<T> {
  /** Stores one batch (e.g. one multi-row insert). A rejection means "not stored, retry". */
  write: (batch: T[]) => Promise<void>;
  /** Most clicks held at once, queued plus being written (default 10 000). */
  capacity?: number;
  /** Most clicks per write; a full batch is written at once (default 500). */
  batchSize?: number;
  /** A partial batch waits at most this long (default 1 000 ms). */
  flushIntervalMs?: number;
  /** First retry delay after a failed write, doubled per failure (default 250 ms)... */
  retryBaseMs?: number;
  /** ...up to this (default 30 000 ms). */
  retryMaxMs?: number;
  /** Attempts per batch before it is dropped (default 8). */
  maxAttempts?: number;
  /** Told about each failed write (default: console.error). */
  onWriteError?: (error: unknown, attempt: number) => void;
  /**
   * Told that clicks were lost (default: console.warn), with how many since it was last told and
   * why the latest went. Lost clicks are never silent, yet a flood of them costs one call per
   * `dropReportIntervalMs` (default 10 000 ms), not one per click.
   */
  onDrop?: (lost: number, reason: ClickDropReason) => void;
  dropReportIntervalMs?: number;
}

/** Why a click was lost: no room left, its batch failed maxAttempts times, or pushed after close. */
export type ClickDropReason = 'full' | 'gave_up' | 'closed';

export interface ClickBufferStats {
  /** Waiting in the ring. */
  queued: number;
  /** In the batch being written (or waiting for its retry). */
  inFlight: number;
  /** Stored by the writer. */
  written: number;
  /** Lost: pushed out by newer clicks, given up after maxAttempts, or left at close. */
  dropped: number;
  /** Write calls that failed. */
  failedWrites: number;
  /** Write calls that succeeded. */
  batches: number;
}

type Timer = ReturnType<typeof setTimeout>;

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer, not ${value}`);
  }
  return value;
}

export class ClickBuffer<T> {
  readonly #write: (batch: T[]) => Promise<void>;
  readonly #capacity: number;
  readonly #batchSize: number;
  readonly #retryBaseMs: number;
  readonly #retryMaxMs: number;
  readonly #maxAttempts: number;
  readonly #onWriteError: (error: unknown, attempt: number) => void;
  readonly #onDrop: (lost: number, reason: ClickDropReason) => void;
  readonly #dropReportIntervalMs: number;
  #dropsUnreported = 0;
  #lastDropReportAt = -Infinity;

  // The ring: `#size` clicks from `#head`, wrapping around.
  readonly #ring: (T | undefined)[];
  #head = 0;
  #size = 0;

  #inFlight: T[] = [];
  /**
   * Clicks at the ring's head that the drain writes even in a partial batch: those queued when
   * the timer fired, a flush was asked for, or a retry came (a full batch needs no such mark).
   */
  #due = 0;
  #attempt = 0;
  #draining: Promise<boolean> | undefined;
  #kickTimer: Timer | undefined;
  #retryTimer: Timer | undefined;
  readonly #intervalTimer: Timer;
  #closed = false;

  #written = 0;
  #dropped = 0;
  #failedWrites = 0;
  #batches = 0;

  constructor(options: ClickBufferOptions<T>) {
    this.#write = options.write;
    this.#capacity = positiveInteger('capacity', options.capacity ?? 10_000);
    this.#batchSize = positiveInteger('batchSize', options.batchSize ?? 500);
    if (this.#batchSize > this.#capacity) {
      throw new RangeError(`batchSize (${this.#batchSize}) exceeds capacity (${this.#capacity})`);
    }
    this.#retryBaseMs = positiveInteger('retryBaseMs', options.retryBaseMs ?? 250);
    this.#retryMaxMs = positiveInteger('retryMaxMs', options.retryMaxMs ?? 30_000);
    this.#maxAttempts = positiveInteger('maxAttempts', options.maxAttempts ?? 8);
    this.#onWriteError =
      options.onWriteError ??
      ((error, attempt) => console.error(`Click batch write failed (attempt ${attempt}):`, error));
    this.#onDrop =
      options.onDrop ??
      ((lost, reason) =>
        console.warn(`Clicks lost: ${lost} since the last report (latest: ${reason}).`));
    this.#dropReportIntervalMs = positiveInteger(
      'dropReportIntervalMs',
      options.dropReportIntervalMs ?? 10_000,
    );
    this.#ring = new Array<T | undefined>(this.#capacity);
    const interval = positiveInteger('flushIntervalMs', options.flushIntervalMs ?? 1_000);
    this.#intervalTimer = setInterval(() => {
      if (this.#size === 0) return;
      // A drain already running takes these too (it reads the mark as it goes).
      this.#due = this.#size;
      this.#drainUnlessBusy();
    }, interval);
    // The buffer alone must not keep a process alive; shutdown hooks flush what is left.
    Deno.unrefTimer(this.#intervalTimer);
  }

  /** Queues one click. Constant time; never waits, never throws. */
  push(click: T): void {
    if (this.#closed) {
      this.#lose(1, 'closed');
      return;
    }
    if (this.#size + this.#inFlight.length >= this.#capacity) {
      this.#lose(1, 'full');
      // Everything held is in the batch being written: the newcomer is the one to go.
      if (this.#size === 0) return;
      this.#ring[this.#head] = undefined;
      this.#head = (this.#head + 1) % this.#capacity;
      this.#size--;
      if (this.#due > 0) this.#due--;
    }
    this.#ring[(this.#head + this.#size) % this.#capacity] = click;
    this.#size++;
    if (this.#size >= this.#batchSize && this.#kickTimer === undefined) {
      // A macrotask later, so the writer never runs inside the request that pushed.
      this.#kickTimer = setTimeout(() => {
        this.#kickTimer = undefined;
        this.#drainUnlessBusy();
      }, 0);
    }
  }

  stats(): ClickBufferStats {
    return {
      queued: this.#size,
      inFlight: this.#inFlight.length,
      written: this.#written,
      dropped: this.#dropped,
      failedWrites: this.#failedWrites,
      batches: this.#batches,
    };
  }

  /**
   * Writes everything held now, batch by batch, skipping any retry wait. True when all of it
   * was stored; false when a write failed (the clicks stay held and a retry is scheduled).
   */
  async flush(): Promise<boolean> {
    for (;;) {
      if (this.#draining) await this.#draining;
      this.#cancelRetry();
      if (this.#size === 0 && this.#inFlight.length === 0) return true;
      this.#due = this.#size;
      if (!(await this.#drain())) return false;
    }
  }

  /**
   * Stops the timers, makes a last attempt to write what is held, and drops (counts) whatever
   * that attempt could not store. Later pushes are dropped and counted.
   */
  async close(): Promise<ClickBufferStats> {
    if (!this.#closed) {
      this.#closed = true;
      clearInterval(this.#intervalTimer);
      clearTimeout(this.#kickTimer);
      this.#kickTimer = undefined;
      await this.flush();
      this.#cancelRetry();
      if (this.#size + this.#inFlight.length > 0) {
        this.#lose(this.#size + this.#inFlight.length, 'closed', true);
      }
      this.#inFlight = [];
      this.#ring.fill(undefined);
      this.#size = 0;
      this.#due = 0;
    }
    return this.stats();
  }

  /** Counts lost clicks and tells onDrop, at most once per interval unless `now` says so. */
  #lose(count: number, reason: ClickDropReason, now = false) {
    this.#dropped += count;
    this.#dropsUnreported += count;
    const at = performance.now();
    if (!now && at - this.#lastDropReportAt < this.#dropReportIntervalMs) {
      return;
    }
    this.#lastDropReportAt = at;
    const lost = this.#dropsUnreported;
    this.#dropsUnreported = 0;
    this.#onDrop(lost, reason);
  }

  #drainUnlessBusy() {
    if (!this.#draining && this.#retryTimer === undefined) void this.#drain();
  }

  #cancelRetry() {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
  }

  #takeBatch() {
    const count = Math.min(this.#batchSize, this.#size);
    const batch: T[] = [];
    for (let i = 0; i < count; i++) {
      batch.push(this.#ring[this.#head] as T);
      this.#ring[this.#head] = undefined;
      this.#head = (this.#head + 1) % this.#capacity;
    }
    this.#size -= count;
    this.#due = Math.max(0, this.#due - count);
    this.#inFlight = batch;
  }

  /**
   * One drain at a time: the batch in flight, the due clicks, and whole batches while there are
   * some; resolves true once that is written (a partial batch not due stays queued), false after
   * a failed write.
   */
  #drain(): Promise<boolean> {
    if (this.#draining) return this.#draining;
    // Nothing to write (a kick whose batch a running drain already took): no drain, since one
    // that ended before its first await would clear #draining before it is even set.
    if (!this.#hasWork()) return Promise.resolve(true);
    this.#draining = (async () => {
      try {
        while (this.#hasWork()) {
          if (this.#inFlight.length === 0) this.#takeBatch();
          if (!(await this.#writeInFlight())) return false;
        }
        return true;
      } finally {
        this.#draining = undefined;
      }
    })();
    return this.#draining;
  }

  /** A batch in flight, due clicks, or a whole batch queued. */
  #hasWork(): boolean {
    return (
      this.#inFlight.length > 0 ||
      (this.#due > 0 && this.#size > 0) ||
      this.#size >= this.#batchSize
    );
  }

  async #writeInFlight(): Promise<boolean> {
    const batch = this.#inFlight;
    try {
      // A copy: the writer may keep or change its array without touching ours.
      await this.#write([...batch]);
    } catch (error) {
      this.#failedWrites++;
      this.#attempt++;
      this.#onWriteError(error, this.#attempt);
      if (this.#attempt >= this.#maxAttempts) {
        this.#lose(batch.length, 'gave_up');
        this.#inFlight = [];
        this.#attempt = 0;
        return true; // given up on this batch; carry on with the next
      }
      if (!this.#closed) this.#scheduleRetry();
      return false;
    }
    this.#written += batch.length;
    this.#batches++;
    this.#inFlight = [];
    this.#attempt = 0;
    return true;
  }

  #scheduleRetry() {
    const delay = Math.min(this.#retryMaxMs, this.#retryBaseMs * 2 ** (this.#attempt - 1));
    const timer = setTimeout(() => {
      this.#retryTimer = undefined;
      // As before the failure: the batch, then whatever is queued.
      this.#due = this.#size;
      void this.#drain();
    }, delay);
    Deno.unrefTimer(timer);
    this.#retryTimer = timer;
  }
}

interface EdgeRuntimeGlobal {
  EdgeRuntime?: { waitUntil?(promise: Promise<unknown>): void };
}

export interface ShutdownOptions {
  /** Signals that end the process after the flush (default SIGTERM and SIGINT). */
  signals?: Deno.Signal[];
  /** How long shutdown waits for the last writes before giving up on them (default 3 000 ms). */
  deadlineMs?: number;
  /** How to end the process after a signal (default Deno.exit). */
  exit?: (code: number) => void;
}

/**
 * Writes what is held when the process ends, within a deadline:
 * - on `beforeunload`: Deno fires it when the event loop runs dry and keeps running if it is
 *   cancelled; Supabase's edge runtime fires it before retiring a worker and waits for promises
 *   given to EdgeRuntime.waitUntil;
 * - on SIGTERM/SIGINT (the local stack stops functions with SIGTERM once no request is in
 *   flight, then SIGKILL at its stop deadline), then exits.
 * Returns a function that removes the hooks.
 */
export function flushOnShutdown(
  buffer: Pick<ClickBuffer<unknown>, 'close' | 'stats'>,
  { signals = ['SIGTERM', 'SIGINT'], deadlineMs = 3_000, exit = Deno.exit }: ShutdownOptions = {},
): () => void {
  let closing: Promise<unknown> | undefined;
  const closeWithinDeadline = () => {
    if (!closing) {
      let deadline: Timer | undefined;
      closing = Promise.race([
        buffer.close(),
        new Promise((resolve) => (deadline = setTimeout(resolve, deadlineMs))),
      ]).finally(() => clearTimeout(deadline));
    }
    return closing;
  };
  const onBeforeUnload = (event: Event) => {
    const { queued, inFlight } = buffer.stats();
    // Cancel only once, and only with work to do: an idle loop would otherwise never end.
    if (closing || queued + inFlight === 0) return;
    event.preventDefault();
    (globalThis as EdgeRuntimeGlobal).EdgeRuntime?.waitUntil?.(closeWithinDeadline());
    void closeWithinDeadline();
  };
  const onSignal = async () => {
    await closeWithinDeadline();
    exit(0);
  };
  globalThis.addEventListener('beforeunload', onBeforeUnload);
  for (const signal of signals) Deno.addSignalListener(signal, onSignal);
  return () => {
    globalThis.removeEventListener('beforeunload', onBeforeUnload);
    for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
  };
}
