import type { OutboundGuard } from '@voltdepot/server-core';
import type { EventChannel } from '@voltdepot/shared-contracts';
import type { ConfigRow } from '../configs/config.repository';
import type { SendJobName, SendMessageJob } from '../jobs/send-message.job';

/**
 * The outbound rules for a provider endpoint a user configured that a library connects to itself (an SMS
 * SDK): checked just before the send; throws a ChannelError naming the refusal.
 */
export async function checkEndpoint(
  outbound: OutboundGuard,
  endpoint: string,
  provider: string,
): Promise<void> {
  const host = new URL(endpoint.includes('://') ? endpoint : `https://${endpoint}`).hostname;
  try {
    await outbound.resolveAllowed(host);
  } catch (error) {
    throw new ChannelError(`${provider} endpoint refused: ${(error as Error).message}`);
  }
}

/** Delivers one job through a provider; throws with the provider's error (never credentials). */
export interface ChannelSender {
  readonly channel: EventChannel;
  readonly jobName: SendJobName;
  send(job: SendMessageJob, config: ConfigRow | undefined): Promise<void>;
}

export const CHANNEL_SENDERS = Symbol('CHANNEL_SENDERS');

export class ChannelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChannelError';
  }
}

export function requireConfig(config: ConfigRow | undefined, channel: string): ConfigRow {
  if (config === undefined) throw new ChannelError(`No ${channel} configuration for this message`);
  return config;
}

export function setting(config: ConfigRow, key: string): string {
  const value = config.settings[key];
  if (value === undefined || value === null || value === '') {
    throw new ChannelError(`Configuration '${config.configName}' lacks setting '${key}'`);
  }
  return String(value);
}

/**
 * POSTs JSON to a robot webhook (a URL a user configured: through the outbound rules); both HTTP errors
 * and `errcode != 0` answers are failures.
 */
export async function postRobot(
  outbound: OutboundGuard,
  url: string,
  body: unknown,
  provider: string,
  timeoutMs = 10_000,
): Promise<void> {
  let res: Response;
  try {
    res = await outbound.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    // The URL carries the robot's token: never put it in the error.
    throw new ChannelError(
      `${provider} request failed: ${(error as Error).name}: ${(error as Error).message}`,
    );
  }
  const text = await res.text();
  if (!res.ok) throw new ChannelError(`${provider} answered HTTP ${res.status}: ${text.slice(0, 300)}`);
  let answer: { errcode?: number; errmsg?: string };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    throw new ChannelError(`${provider} answered a non-JSON body: ${text.slice(0, 300)}`);
  }
  if (answer.errcode !== 0)
    throw new ChannelError(`${provider} error ${answer.errcode}: ${answer.errmsg ?? ''}`);
}
