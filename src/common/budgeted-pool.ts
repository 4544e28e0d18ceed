// A pool of worker threads (piscina) whose tasks have a time budget: a task still running when
// its budget is spent is stopped (piscina ends that worker and starts another), and a full queue
// is refused at once instead of growing without bound. Tasks take and return text.
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
  /** URL (file:) of the worker module; its default export takes and returns a string. */
  filename: string;
  threads: number;
  /** Tasks that may wait for a worker; one more is refused with PoolBusy. */
  queue: number;
  budgetMs: number;
}

export class BudgetedWorkerPool {
  private readonly pool: Piscina;
  /** Tasks running or waiting. Counted here: piscina does not apply maxQueue to tasks with a signal. */
  private inFlight = 0;

  constructor(private readonly options: BudgetedPoolOptions) {
    this.pool = new Piscina({ filename: options.filename, minThreads: 1, maxThreads: options.threads, idleTimeout: 60_000 });
  }

  async run(payload: string): Promise<string> {
    if (this.inFlight >= this.options.threads + this.options.queue) throw new PoolBusy();
    this.inFlight += 1;
    try {
      return (await this.pool.run(payload, { signal: AbortSignal.timeout(this.options.budgetMs) })) as string;
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw new TimeBudgetExceeded(this.options.budgetMs);
      throw error;
    } finally {
      this.inFlight -= 1;
    }
  }

  /** Tasks running or waiting now. */
  get pending(): number {
    return this.inFlight;
  }

  /**
   * Ends the workers once the tasks already taken are done (at most `maxWaitMs`): on shutdown the
   * server stops taking requests only after this, so a request in flight still gets its answer.
   */
  async destroy(maxWaitMs = 0): Promise<void> {
    const until = Date.now() + maxWaitMs;
    while (this.inFlight > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    await this.pool.destroy();
  }
}
