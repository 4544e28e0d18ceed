// A pool of worker threads (piscina) whose tasks have a time budget: a task still running when
// its budget is spent is stopped (piscina ends that worker and starts another), and a full queue
// is refused at once instead of growing without bound.
import { Piscina } from 'piscina';

export class TimeBudgetExceeded extends Error {
  constructor(readonly budgetMs: number) {
    super(`the task did not finish within ${budgetMs} ms`);
    this.name = 'TimeBudgetExceeded';
  }
}

export class PoolBusy extends Error {
  constructor() {
    super('every worker is busy and the queue is full');
    this.name = 'PoolBusy';
  }
}

export interface BudgetedPoolOptions {
  /** URL (file:) of the worker module; its default export (or the task's `name`) runs each task. */
  filename: string;
  threads: number;
  /** Tasks that may wait for a worker; one more is refused with PoolBusy. */
  queue: number;
  budgetMs: number;
}

export class BudgetedWorkerPool {
  private readonly pool: Piscina;
  /**
   * Tasks running (at most `threads`) and waiting (at most `queue`), kept here rather than in
   * piscina: its maxQueue is not applied to tasks with a signal, and a task's budget must start
   * when it starts running, not while it waits for a worker.
   */
  private running = 0;
  private readonly waiting: { start: () => void; timer: NodeJS.Timeout }[] = [];
  /** Set by destroy once the workers end: a task offered later is refused as busy (503), not failed (500). */
  private closing = false;

  constructor(private readonly options: BudgetedPoolOptions) {
    // Memory of a worker (BENCHMARKS.md, "Memory"):
    // - its young generation is capped at 8 MB, a sixth of Node's default of 48 MB: an estimate
    //   allocates about 2.4 MB and lives a few milliseconds, so a smaller young generation is
    //   collected a little more often; 4 MB cost a fifth of the estimates per second;
    // - a worker waits for its next task on its event loop, not blocked in Atomics.wait (piscina's
    //   default), so that V8's own collection tasks run between estimates: blocked, it let garbage
    //   gather in the old generation (20 MiB held for 5-11 in use after a burst).
    // Together: 18 MiB less after the benchmark, at the same estimates per second.
    this.pool = new Piscina({
      filename: options.filename,
      minThreads: 1,
      maxThreads: options.threads,
      idleTimeout: 60_000,
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
      atomics: 'disabled',
    });
  }

  /**
   * `payload` is structured-cloned to the worker, but for `transferList` (moved, not copied);
   * `name`: the worker module's export that runs it (default: its default export).
   */
  async run<T = string>(payload: unknown, { transferList, name }: { transferList?: ArrayBuffer[]; name?: string } = {}): Promise<T> {
    await this.acquire();
    const signal = AbortSignal.timeout(this.options.budgetMs);
    try {
      return (await this.pool.run(payload, { signal, ...(transferList ? { transferList } : {}), ...(name ? { name } : {}) })) as T;
    } catch (error) {
      // Whatever piscina rejects with once the budget is spent (its AbortError, or the signal's
      // TimeoutError when the abort meets a task being handed to a worker), it is the budget.
      if (signal.aborted) throw new TimeBudgetExceeded(this.options.budgetMs);
      throw error;
    } finally {
      this.release();
    }
  }

  /** A worker slot, now or after waiting; PoolBusy when the queue is full or the wait outlasts a budget. */
  private acquire(): Promise<void> {
    if (this.closing) return Promise.reject(new PoolBusy());
    if (this.running < this.options.threads) {
      this.running += 1;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.options.queue) return Promise.reject(new PoolBusy());
    return new Promise((resolve, reject) => {
      const entry = {
        start: () => {
          clearTimeout(entry.timer);
          resolve();
        },
        timer: setTimeout(() => {
          const at = this.waiting.indexOf(entry);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(new PoolBusy());
        }, this.options.budgetMs),
      };
      this.waiting.push(entry);
    });
  }

  /** Hands the slot to the next waiting task, or frees it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next.start();
    else this.running -= 1;
  }

  private get inFlight(): number {
    return this.running + this.waiting.length;
  }

  /**
   * Ends the workers once the tasks already taken are done (at most `maxWaitMs`): on shutdown the
   * server stops taking requests only after this, so a request in flight still gets its answer.
   */
  async destroy(maxWaitMs = 0): Promise<void> {
    const until = Date.now() + maxWaitMs;
    while (this.inFlight > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    this.closing = true;
    await this.pool.destroy();
  }
}
