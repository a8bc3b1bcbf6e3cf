import { createHash } from 'node:crypto';
import type { EventChannel } from '@voltdepot/shared-contracts';

/** One message to one receiver on one channel. Credentials are not in it: the worker reads the config. */
export type SendMessageJob = {
  /** Deterministic: event x receiver x channel. Also the send-log key. */
  jobId: string;
  eventKey: string;
  channel: EventChannel;
  configId: number | null;
  receiver: {
    userId: number | null;
    name: string;
    /** E-mail address, phone number, or `robot` for group robots. */
    address: string;
    /** Phones to mention in group-robot messages. */
    mentions?: string[];
  };
  title: string;
  /** Rendered rich text (e-mail, inbox). */
  html: string;
  /** Rendered plain text (robots). */
  text: string;
  /** Provider template code (SMS) and its parameters. */
  msgKey: string | null;
  params: Record<string, string>;
  /** Link of DingTalk LINK messages. */
  link?: string;
};

/** Job name per channel: a queue per channel, one handler per job name. */
export const SEND_JOB_NAMES = {
  0: 'send.sms',
  1: 'send.email',
  2: 'send.wechat',
  3: 'send.ddtalk',
  4: 'send.websocket',
} as const satisfies Record<EventChannel, string>;
export type SendJobName = (typeof SEND_JOB_NAMES)[EventChannel];

export const ALL_CHANNELS: EventChannel[] = [0, 1, 2, 3, 4];

export function queueNameOf(channel: EventChannel): string {
  return SEND_JOB_NAMES[channel].replace('.', '-');
}

/** `<event>.<receiver>.<channel>`, safe for BullMQ (no ':'), hashed when long. */
export function sendJobId(eventKey: string, receiverKey: string, channel: EventChannel): string {
  const raw = `${eventKey}.${receiverKey}.c${channel}`.replace(/[^A-Za-z0-9._-]/g, '_');
  return raw.length <= 120 ? raw : `h${createHash('sha256').update(raw).digest('hex')}.c${channel}`;
}
