import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SERVICE_CONFIG } from '@voltdepot/server-core';
import { Job, Queue, Worker } from 'bullmq';
import Redis from 'ioredis';
import type { MsgCenterConfig } from '../../app.config';
import { MSG_QUEUE_OPTIONS, MsgQueueOptions } from '../../jobs/queue.options';
import { AlertRepository } from '../alert.repository';
import {
  ALERT_JOB_NAMES,
  ALERT_QUEUE,
  ALERT_TICK_SCHEDULER,
  AlertEvaluateJob,
  alertEvaluateJobId,
  AlertJobName,
  roundOf,
} from './alert-check.job';
import { AlertEvaluator } from './alert-evaluator';

type AlertJob = AlertEvaluateJob | Record<string, never>;

/**
 * The alerts' schedule in the worker: a BullMQ job scheduler starts a round every MSG_ALERT_INTERVAL_MS
 * (one tick per round across every worker replica); the tick enqueues one check per enabled alert with a
 * deterministic id, and the checks run with bounded concurrency on whichever worker takes them.
 */
@Injectable()
export class AlertWorkers implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AlertWorkers');
  private connection: Redis | undefined;
  private queue: Queue<AlertJob> | undefined;
  private worker: Worker<AlertJob> | undefined;
  private readonly handlers: Record<AlertJobName, (job: Job<AlertJob>) => Promise<unknown>> = {
    [ALERT_JOB_NAMES.tick]: (job) => this.tick(job),
    [ALERT_JOB_NAMES.evaluate]: (job) => this.evaluate(job as Job<AlertEvaluateJob>),
  };

  constructor(
    @Inject(MSG_QUEUE_OPTIONS) private readonly options: MsgQueueOptions,
    @Inject(SERVICE_CONFIG)
    private readonly config: Pick<
      MsgCenterConfig,
      'MSG_ALERTS_ENABLED' | 'MSG_ALERT_INTERVAL_MS' | 'MSG_ALERT_CONCURRENCY' | 'MSG_ALERT_TIMEOUT_MS'
    >,
    private readonly alerts: AlertRepository,
    private readonly evaluator: AlertEvaluator,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.MSG_ALERTS_ENABLED) return;
    this.connection = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    const common = { connection: this.connection, prefix: this.options.prefix };
    this.queue = new Queue<AlertJob>(ALERT_QUEUE, common);
    // Every replica upserts the same scheduler: one schedule, the latest interval wins.
    await this.queue.upsertJobScheduler(
      ALERT_TICK_SCHEDULER,
      { every: this.config.MSG_ALERT_INTERVAL_MS },
      {
        name: ALERT_JOB_NAMES.tick,
        data: {},
        opts: { removeOnComplete: { count: 100 }, removeOnFail: { count: 1000 } },
      },
    );
    this.worker = new Worker<AlertJob>(
      ALERT_QUEUE,
      async (job) => {
        const handler = this.handlers[job.name as AlertJobName];
        if (handler === undefined) throw new Error(`No handler for job '${job.name}'`);
        return handler(job);
      },
      {
        ...common,
        concurrency: this.config.MSG_ALERT_CONCURRENCY,
        // A check takes up to a few time-outs (two CPU readings, Kafka connect + two requests).
        lockDuration: Math.max(30_000, this.config.MSG_ALERT_TIMEOUT_MS * 6),
      },
    );
    this.worker.on('failed', (job, error) =>
      this.logger.warn(`job ${job?.id ?? '?'} (${job?.name ?? '?'}) failed: ${error.message}`),
    );
    this.worker.on('error', (error) => this.logger.error(`alert worker: ${error.message}`));
    this.logger.log(`alerts evaluated every ${this.config.MSG_ALERT_INTERVAL_MS} ms`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.queue?.close();
    await this.connection?.quit().catch(() => this.connection?.disconnect());
  }

  private async tick(job: Job<AlertJob>): Promise<number> {
    const round = roundOf(job.id, Date.now());
    const alerts = await this.alerts.enabled();
    await this.queue!.addBulk(
      alerts.map((alert) => ({
        name: ALERT_JOB_NAMES.evaluate,
        data: { alertId: alert.id, round },
        opts: {
          jobId: alertEvaluateJobId(alert.id, round),
          attempts: 3,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: { age: 3600 },
          removeOnFail: { age: 7 * 86_400 },
        },
      })),
    );
    return alerts.length;
  }

  private async evaluate(job: Job<AlertEvaluateJob>): Promise<string> {
    const check = await this.evaluator.evaluate(job.data.alertId, job.data.round);
    if (check === undefined) return 'skipped';
    return `${check.status} ${check.value ?? '-'}; notified ${check.notified.length}`;
  }
}
