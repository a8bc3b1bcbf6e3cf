import { timingSafeEqual } from 'node:crypto';

/** The configuration fields that decide who may read /metrics (any service's `ServiceConfig` has them). */
export type MetricsAccessConfig = {
  NODE_ENV?: string;
  METRICS_TOKEN?: string;
  METRICS_PUBLIC?: boolean;
};

/** Whether a /metrics request may be served, and why not. */
export type MetricsDecision = 'serve' | 'token-missing' | 'token-wrong' | 'closed';

/**
 * Who reads a service's metrics: with METRICS_TOKEN set, only a request bearing it
 * (`Authorization: Bearer <token>`, as a Prometheus scrape config sends it); without one, anyone when
 * METRICS_PUBLIC (default outside production), nobody otherwise: a production service does not show
 * its internals to whoever reaches its port.
 */
export function metricsDecision(
  config: MetricsAccessConfig,
  authorization: string | undefined,
): MetricsDecision {
  const token = config.METRICS_TOKEN;
  if (token === undefined || token === '') {
    return (config.METRICS_PUBLIC ?? config.NODE_ENV !== 'production') ? 'serve' : 'closed';
  }
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (presented === undefined) return 'token-missing';
  const [a, b] = [Buffer.from(presented), Buffer.from(token)];
  return a.length === b.length && timingSafeEqual(a, b) ? 'serve' : 'token-wrong';
}
