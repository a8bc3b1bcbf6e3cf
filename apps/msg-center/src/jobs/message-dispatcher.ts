import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { EventChannel } from '@voltdepot/shared-contracts';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { ConfigRepository, ConfigRow } from '../configs/config.repository';
import type { Recipient } from '../groups/group.repository';
import { SendLogRepository } from '../send-logs/send-log.repository';
import { htmlToText, renderTemplate } from '../templates/template-content';
import { TemplateRepository, TemplateRow } from '../templates/template.repository';
import { MSG_QUEUE_OPTIONS, MsgQueueOptions } from './queue.options';
import { queueNameOf, SEND_JOB_NAMES, SendMessageJob, sendJobId } from './send-message.job';

const CHANNEL_TYPE: Record<EventChannel, string> = {
  0: 'SMS',
  1: 'EMAIL',
  2: 'WECHAT',
  3: 'DDTALK',
  4: 'WEBSOCKET',
};

export type DispatchRequest = {
  /** Business key of what happened (event id, alert id + window): with receiver and channel, the job id. */
  eventKey: string;
  ruleKind: 'event' | 'alert' | 'manual';
  ruleId: number | null;
  templateId: number | null;
  channels: EventChannel[];
  recipients: Recipient[];
  /** Values of the template's ${XXX} variables. */
  values: Record<string, unknown>;
  /** Used when the rule has no template. */
  fallback: { title: string; content: string };
  link?: string;
};

export type DispatchOutcome = { queued: string[]; failed: string[]; skipped: string[] };

/**
 * Turns one occurrence into jobs: one per receiver and channel (one per channel for group robots), each
 * with a deterministic id and a send-log row. Rendering errors (a missing ${XXX}) become FAILED send-log
 * rows with the reason instead of jobs.
 */
@Injectable()
export class MessageDispatcher implements OnApplicationShutdown {
  private readonly logger = new Logger('MessageDispatcher');
  private readonly connection: Redis;
  private readonly queues = new Map<EventChannel, Queue<SendMessageJob>>();

  constructor(
    @Inject(MSG_QUEUE_OPTIONS) private readonly options: MsgQueueOptions,
    private readonly templates: TemplateRepository,
    private readonly configs: ConfigRepository,
    private readonly logs: SendLogRepository,
  ) {
    this.connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await this.connection.quit().catch(() => this.connection.disconnect());
  }

  queue(channel: EventChannel): Queue<SendMessageJob> {
    let queue = this.queues.get(channel);
    if (queue === undefined) {
      queue = new Queue<SendMessageJob>(queueNameOf(channel), {
        connection: this.connection,
        prefix: this.options.prefix,
      });
      this.queues.set(channel, queue);
    }
    return queue;
  }

  async dispatch(request: DispatchRequest): Promise<DispatchOutcome> {
    const outcome: DispatchOutcome = { queued: [], failed: [], skipped: [] };
    const template = request.templateId === null ? undefined : await this.templates.find(request.templateId);
    for (const channel of request.channels) {
      const config = await this.configFor(channel, template);
      const robot = channel === 2 || channel === 3;
      const targets = robot ? [undefined] : request.recipients;
      for (const recipient of targets) {
        const address = robot ? 'robot' : this.addressOf(channel, recipient!);
        const receiverKey = robot ? `robot${config?.id ?? ''}` : `u${recipient!.userId}`;
        const jobId = sendJobId(request.eventKey, receiverKey, channel);
        if (address === undefined) {
          outcome.skipped.push(jobId);
          continue;
        }
        let job: SendMessageJob;
        try {
          job = this.render(request, template, config, channel, jobId, recipient, address);
        } catch (error) {
          await this.logs.insert({
            ...this.logFields(
              request,
              channel,
              jobId,
              recipient,
              address,
              template?.templateName ?? request.fallback.title,
              null,
            ),
            status: 'FAILED',
            error: (error as Error).message,
          });
          outcome.failed.push(jobId);
          continue;
        }
        await this.logs.insert(
          this.logFields(request, channel, jobId, recipient, address, job.title, job.text),
        );
        await this.queue(channel).add(SEND_JOB_NAMES[channel], job, {
          jobId,
          attempts: this.options.attempts,
          backoff: { type: 'exponential', delay: this.options.backoffMs },
          removeOnComplete: { age: 7 * 86_400 },
          removeOnFail: false,
        });
        outcome.queued.push(jobId);
      }
    }
    if (outcome.failed.length > 0) {
      this.logger.warn(
        `event ${request.eventKey}: ${outcome.failed.length} message(s) could not be rendered`,
      );
    }
    return outcome;
  }

  private render(
    request: DispatchRequest,
    template: TemplateRow | undefined,
    config: ConfigRow | undefined,
    channel: EventChannel,
    jobId: string,
    recipient: Recipient | undefined,
    address: string,
  ): SendMessageJob {
    // Parameters holding ${XXX} are expressions (SMS template params); plain ones are default values.
    const defaults = Object.fromEntries(
      Object.entries(template?.parameters ?? {}).filter(([, v]) => !v.includes('${')),
    );
    const values = { ...defaults, ...request.values };
    const html = renderTemplate(template?.content ?? request.fallback.content, values, { html: true });
    const title = template ? renderTemplate(template.templateName, values) : request.fallback.title;
    const params = Object.fromEntries(
      Object.entries(template?.parameters ?? {}).map(([k, v]) => [k, renderTemplate(v, values)]),
    );
    return {
      jobId,
      eventKey: request.eventKey,
      channel,
      configId: config?.id ?? null,
      receiver: {
        userId: recipient?.userId ?? null,
        name: recipient ? recipient.realName : 'robot',
        address,
        mentions: recipient
          ? undefined
          : request.recipients.map((r) => r.phone).filter((p): p is string => !!p),
      },
      title,
      html,
      text: htmlToText(html),
      msgKey: template?.msgKey ?? null,
      params,
      link: request.link,
    };
  }

  /** The template's config when it serves this channel, else the first config of the channel. */
  private async configFor(
    channel: EventChannel,
    template: TemplateRow | undefined,
  ): Promise<ConfigRow | undefined> {
    if (channel === 4) return undefined;
    if (template && template.channel === CHANNEL_TYPE[channel]) return this.configs.find(template.configId);
    return (await this.configs.list({ channel: CHANNEL_TYPE[channel] }))[0];
  }

  private addressOf(channel: EventChannel, r: Recipient): string | undefined {
    switch (channel) {
      case 0:
        return r.phone ?? undefined;
      case 1:
        return r.email ?? undefined;
      default:
        return String(r.userId);
    }
  }

  private logFields(
    request: DispatchRequest,
    channel: EventChannel,
    jobId: string,
    recipient: Recipient | undefined,
    address: string,
    title: string | null,
    content: string | null,
  ) {
    return {
      jobId,
      eventKey: request.eventKey,
      ruleKind: request.ruleKind,
      ruleId: request.ruleId,
      channel,
      receiverUserId: recipient?.userId ?? null,
      receiver: recipient ? `${recipient.realName} <${address}>` : address,
      title,
      content,
    };
  }
}
