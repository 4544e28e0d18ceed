import { BudgetedWorkerPool, PoolBusy, TimeBudgetExceeded } from './budgeted-pool.js';

const SPIN = new URL('../../test/fixtures/workers/spin.mjs', `file://${process.cwd()}/src/common/`).href;

describe(BudgetedWorkerPool.name, () => {
  let pool: BudgetedWorkerPool;
  afterEach(async () => {
    await pool.destroy();
  });

  it('stops a task that overruns its budget while the main thread keeps running, then serves the next task', async () => {
    pool = new BudgetedWorkerPool({ filename: SPIN, threads: 1, queue: 4, budgetMs: 200 });
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    // 60 s of work on a 200 ms budget: only the budget can end it before the test times out.
    await expect(pool.run('60000')).rejects.toBeInstanceOf(TimeBudgetExceeded);
    clearInterval(timer);
    // The event loop ran its timer while the worker was busy.
    expect(ticks).toBeGreaterThan(3);
    await expect(pool.run('1')).resolves.toBe('spun 1');
  });

  it("starts a task's budget when it starts running, not while it waits for a worker", async () => {
    // One worker, 300 ms tasks, an 800 ms budget: the third task waits 600 ms and then runs 300 ms.
    // Counted from when it was sent (900 ms) it would be over budget; it is not.
    pool = new BudgetedWorkerPool({ filename: SPIN, threads: 1, queue: 4, budgetMs: 800 });
    await pool.run('1');
    await expect(Promise.all([pool.run('300'), pool.run('300'), pool.run('300')])).resolves.toEqual(['spun 300', 'spun 300', 'spun 300']);
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
