import { BudgetedWorkerPool, PoolBusy, TimeBudgetExceeded } from './budgeted-pool.js';

const SPIN = new URL('../../test/fixtures/workers/spin.mjs', `file://${process.cwd()}/src/common/`).href;

describe(BudgetedWorkerPool.name, () => {
  let pool: BudgetedWorkerPool;
  afterEach(async () => {
    await pool.destroy();
  });

  it('stops a task that overruns its budget while the main thread keeps running, then serves the next task', async () => {
    // A 2 s budget: the replacement worker the next task gets must start within it, which on a
    // loaded machine (load average 12, two cores) took longer than 200 ms.
    pool = new BudgetedWorkerPool({ filename: SPIN, threads: 1, queue: 4, budgetMs: 2_000 });
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    // 60 s of work on a 2 s budget: only the budget can end it before the test times out.
    await expect(pool.run('60000')).rejects.toBeInstanceOf(TimeBudgetExceeded);
    clearInterval(timer);
    // The event loop ran its timer while the worker was busy.
    expect(ticks).toBeGreaterThan(3);
    await expect(pool.run('1')).resolves.toBe('spun 1');
  });

  it("starts a task's budget when it starts running, not while it waits for a worker", async () => {
    // One worker, 1 s tasks (timed by the wall clock, so a loaded machine does not stretch them), a
    // 2.6 s budget: the third task waits 2 s and then runs 1 s. Counted from when it was sent (3 s)
    // it would be over budget; it is not. The margins (0.6 s of wait, 0.4 s over) hold on a machine
    // whose threads start hundreds of milliseconds late.
    pool = new BudgetedWorkerPool({ filename: SPIN, threads: 1, queue: 4, budgetMs: 2_600 });
    await pool.run('1');
    await expect(Promise.all([pool.run('1000'), pool.run('1000'), pool.run('1000')])).resolves.toEqual(['spun 1000', 'spun 1000', 'spun 1000']);
  });

  it('finishes the tasks it took before its workers end', async () => {
    pool = new BudgetedWorkerPool({ filename: SPIN, threads: 1, queue: 4, budgetMs: 5_000 });
    const taken = [pool.run('100'), pool.run('100'), pool.run('100')];
    const destroyed = pool.destroy(5_000);
    await expect(Promise.all(taken)).resolves.toEqual(['spun 100', 'spun 100', 'spun 100']);
    await destroyed;
  });

  it('refuses tasks beyond the queue instead of letting it grow, and runs the ones it took', async () => {
    pool = new BudgetedWorkerPool({ filename: SPIN, threads: 1, queue: 1, budgetMs: 5_000 });
    await pool.run('1'); // the worker is up
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => pool.run('200')));
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r.reason).toBeInstanceOf(PoolBusy);
    const done = results.filter((r) => r.status === 'fulfilled').map((r) => r.value);
    expect(done.length).toBeGreaterThan(0);
    expect(done.every((v) => v === 'spun 200')).toBe(true);
  });
});
