import type { Provider } from '@nestjs/common';
import { OutboundAllowList, OutboundGuard, SERVICE_CONFIG } from '@voltdepot/server-core';
import type { MsgCenterConfig } from '../app.config';

type OutboundConfig = Pick<
  MsgCenterConfig,
  'OUTBOUND_ALLOWED_HOSTS' | 'DATABASE_URL' | 'REDIS_URL' | 'KAFKA_BROKERS' | 'MSG_PROMETHEUS_URL'
>;

/** The host of a URL or `host:port`, without brackets; undefined when there is none. */
function hostOf(target: string): string | undefined {
  try {
    return (
      new URL(target.includes('://') ? target : `tcp://${target}`).hostname.replace(/^\[|\]$/g, '') ||
      undefined
    );
  } catch {
    return undefined;
  }
}

/**
 * The allow-list of outbound targets: the administrator's OUTBOUND_ALLOWED_HOSTS, plus the
 * infrastructure this service is configured with (its own PostgreSQL, Redis, Kafka and Prometheus are
 * targets an operator watches, wherever they run).
 */
export function outboundAllowList(config: OutboundConfig): OutboundAllowList {
  const own = [config.DATABASE_URL, config.REDIS_URL, ...(config.KAFKA_BROKERS ?? [])];
  if (config.MSG_PROMETHEUS_URL !== undefined) own.push(config.MSG_PROMETHEUS_URL);
  const hosts = own.map(hostOf).filter((host): host is string => host !== undefined);
  return new OutboundAllowList([...config.OUTBOUND_ALLOWED_HOSTS, ...hosts]);
}

/** The one OutboundGuard of a msg-center process (alert checks, channel senders, checks at save time). */
export const outboundGuardProvider: Provider = {
  provide: OutboundGuard,
  inject: [SERVICE_CONFIG],
  useFactory: (config: OutboundConfig) => new OutboundGuard(outboundAllowList(config)),
};
