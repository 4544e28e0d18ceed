// The cost model off the event loop: worker threads with a time budget per estimate. A request
// that would run longer is stopped and answered 422; when every worker is busy and the queue is
// full, 503 with Retry-After. Health checks and every other request keep being served meanwhile.
import { Inject, Injectable, Optional, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { availableParallelism } from 'node:os';
import type { MeasurementsInput } from '../../domain/measurements/index.js';
import { fromWire } from '../../domain/money/decimal-wire.js';
import { toTask, type PlanRequest } from './estimate-task.js';
import { columnBuffers } from './estimate-body.js';
import { columnsMayMove, estimateBodiesOf, type ParsedTexts } from './estimate-bodies.js';
import type { PlannedEstimate } from './estimate.worker.js';
import { BudgetedWorkerPool, PoolBusy, TimeBudgetExceeded } from '../../common/budgeted-pool.js';
import { AppError, unprocessable } from '../../common/errors/app-error.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';

@Injectable()
export class EstimatePool implements OnModuleDestroy {
  private readonly pool: BudgetedWorkerPool;
  private readonly budgetMs: number;

  constructor(
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'ESTIMATE_WORKERS' | 'ESTIMATE_TIME_BUDGET_MS' | 'ESTIMATE_QUEUE'>,
    @Optional() adapterHost?: HttpAdapterHost,
  ) {
    this.budgetMs = config.ESTIMATE_TIME_BUDGET_MS;
    this.pool = new BudgetedWorkerPool({
      filename: new URL('./estimate.worker.js', import.meta.url).href,
      threads: config.ESTIMATE_WORKERS || Math.max(1, availableParallelism() - 1),
      queue: config.ESTIMATE_QUEUE,
      budgetMs: config.ESTIMATE_TIME_BUDGET_MS,
    });
    // The same workers read large bodies (estimate-bodies.ts): one queue for both, no second pool.
    const server: unknown = adapterHost?.httpAdapter?.getInstance();
    if (server) estimateBodiesOf(server)?.use(this.pool);
  }

  /** `read`: the measurement texts read with the body (estimate-bodies.ts), by token. */
  async run(request: PlanRequest, measurements?: MeasurementsInput, read?: ParsedTexts): Promise<PlannedEstimate> {
    try {
      const task = toTask(request, measurements, read);
      // The columns of texts read ahead are moved, not copied, when one estimate takes them (a REST body).
      const transferList = read && columnsMayMove(read) ? columnBuffers(task.texts) : undefined;
      return fromWire<PlannedEstimate>(await this.pool.run(task, transferList ? { transferList } : {}));
    } catch (error) {
      throw poolError(error);
    }
  }

  async onModuleDestroy(): Promise<void> {
    // Nest runs this before it closes the HTTP server: finish the estimates already accepted.
    await this.pool.destroy(this.budgetMs + 1_000);
  }
}

/**
 * The pool's refusals as the API documents them: over the time budget 422
 * ESTIMATE.TIME_BUDGET_EXCEEDED, every worker busy 503 ESTIMATE.BUSY (with Retry-After); any other
 * error as it is.
 */
export function poolError(error: unknown): unknown {
  if (error instanceof TimeBudgetExceeded) {
    return unprocessable('ESTIMATE.TIME_BUDGET_EXCEEDED', `The estimate did not finish within ${error.budgetMs} ms; allow fewer GPUs or precisions`, [
      { field: 'gpus', message: `planning took longer than ${error.budgetMs} ms` },
    ]);
  }
  if (error instanceof PoolBusy) return new AppError('ESTIMATE.BUSY', 'UNAVAILABLE', 'Every estimate worker is busy; retry shortly');
  return error;
}
