import type { HealthCheck } from './health-check';

export const OBSERVABILITY_OPTIONS = Symbol('OBSERVABILITY_OPTIONS');

export type ObservabilityOptions = {
  /** Service name reported by /health and set as the `service` label on every metric. */
  service: string;
  /** Reported by /health. */
  version?: string;
  checks?: HealthCheck[];
  /** Per-check timeout when the check sets none (default 2000 ms). */
  defaultTimeoutMs?: number;
  /** Collect prom-client's default process metrics (default true). */
  defaultMetrics?: boolean;
};
