import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Job, Worker } from 'bullmq';
import Redis from 'ioredis';
import { CHANNEL_SENDERS, ChannelSender } from '../channels/channel-sender';
import { ConfigRepository } from '../configs/config.repository';
import { SendLogRepository } from '../send-logs/send-log.repository';
import { MSG_QUEUE_OPTIONS, MsgQueueOptions } from './queue.options';
import { ALL_CHANNELS, queueNameOf, SEND_JOB_NAMES, SendMessageJob } from './send-message.job';

/** Every job name has exactly one sender, or the worker refuses to start. Returns senders by job name. */
export function handlersByJobName(senders: ChannelSender[]): Map<string, ChannelSender> {
  const problems: string[] = [];
  const byName = new Map<string, ChannelSender>();
  for (const sender of senders) {
    if (byName.has(sender.jobName)) problems.push(`job '${sender.jobName}' has more than one handler`);
    byName.set(sender.jobName, sender);
  }
  for (const name of Object.values(SEND_JOB_NAMES)) {
    if (!byName.has(name)) problems.push(`job '${name}' has no handler`);
  }
  for (const name of byName.keys()) {
    if (!(Object.values(SEND_JOB_NAMES) as string[]).includes(name))
      problems.push(`handler for unknown job '${name}'`);
  }
  if (problems.length > 0) throw new Error(`Refusing to start the worker: ${problems.join('; ')}`);
  return byName;
}

/** BullMQ workers: one per channel queue, retries with backoff, results and provider errors in the send log. */
@Injectable()
export class ChannelWorkers implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ChannelWorkers');
  private readonly byName: Map<string, ChannelSender>;
  private readonly workers: Worker<SendMessageJob>[] = [];
  private readonly connection: Redis;

  constructor(
    @Inject(CHANNEL_SENDERS) senders: ChannelSender[],
    @Inject(MSG_QUEUE_OPTIONS) private readonly options: MsgQueueOptions,
    private readonly configs: ConfigRepository,
    private readonly logs: SendLogRepository,
  ) {
    this.byName = handlersByJobName(senders);
    this.connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  }

  onApplicationBootstrap(): void {
    for (const channel of ALL_CHANNELS) {
      const worker = new Worker<SendMessageJob>(queueNameOf(channel), (job) => this.process(job), {
        connection: this.connection,
        prefix: this.options.prefix,
        concurrency: this.options.concurrency,
        lockDuration: this.options.lockMs,
        stalledInterval: Math.max(500, Math.floor(this.options.lockMs / 2)),
        maxStalledCount: 5,
      });
      worker.on('failed', (job, error) =>
        this.logger.warn(`job ${job?.id ?? '?'} (${job?.name ?? '?'}) failed: ${error.message}`),
      );
      worker.on('error', (error) => this.logger.error(`worker ${queueNameOf(channel)}: ${error.message}`));
      this.workers.push(worker);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    await this.connection.quit().catch(() => this.connection.disconnect());
  }

  async process(job: Job<SendMessageJob>): Promise<string> {
    const sender = this.byName.get(job.name);
    if (sender === undefined) throw new Error(`No handler for job '${job.name}'`);
    const data = job.data;
    // A job re-run after a crash between "sent" and "completed" must not send again.
    if ((await this.logs.status(data.jobId)) === 'SUCCESS') return 'already sent';
    const attempt = job.attemptsMade + 1;
    const config = data.configId === null ? undefined : await this.configs.find(data.configId);
    try {
      await sender.send(data, config);
    } catch (error) {
      const final = attempt >= (job.opts.attempts ?? 1);
      await this.logs.markFailed(data.jobId, attempt, (error as Error).message, final);
      throw error;
    }
    await this.logs.markSent(data.jobId, attempt);
    return 'sent';
  }
}
