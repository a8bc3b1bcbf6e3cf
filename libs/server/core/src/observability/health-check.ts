import type { DependencyHealth, HealthReport } from '@voltdepot/shared-contracts';

/** One dependency probe. `check` resolves when the dependency is usable and rejects otherwise. */
export type HealthCheck = {
  name: string;
  check: () => Promise<void>;
  /** Default 2000 ms; a probe that takes longer counts as down. */
  timeoutMs?: number;
  /** Default true. A failing non-critical check makes the service "degraded" but still 200. */
  critical?: boolean;
  /** Releases what the check owns (its own connection); called once at shutdown. */
  close?: () => Promise<void>;
};

export const DEFAULT_HEALTH_TIMEOUT_MS = 2000;

/** Messages are cut so a chatty driver error cannot bloat the public health response. */
const MAX_ERROR_LENGTH = 200;

/** A check from any async function: `healthCheck('ledger-api', () => ledger.ping())`. */
export function healthCheck(
  name: string,
  check: () => Promise<unknown>,
  options: Omit<HealthCheck, 'name' | 'check'> = {},
): HealthCheck {
  return {
    name,
    check: async () => {
      await check();
    },
    ...options,
  };
}

export async function runHealthCheck(
  check: HealthCheck,
  defaultTimeoutMs = DEFAULT_HEALTH_TIMEOUT_MS,
): Promise<DependencyHealth> {
  const timeoutMs = check.timeoutMs ?? defaultTimeoutMs;
  const startedAt = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([Promise.resolve().then(check.check), timeout]);
    return { name: check.name, status: 'up', latencyMs: elapsed(startedAt) };
  } catch (error) {
    return { name: check.name, status: 'down', latencyMs: elapsed(startedAt), error: describe(error) };
  } finally {
    clearTimeout(timer);
  }
}

export type HealthReportOptions = { service: string; version: string; defaultTimeoutMs?: number };

/** Runs all checks in parallel. "ok": all up; "degraded": only non-critical ones down; "down": a critical one down. */
export async function buildHealthReport(
  checks: readonly HealthCheck[],
  options: HealthReportOptions,
): Promise<HealthReport> {
  const dependencies = await Promise.all(checks.map((c) => runHealthCheck(c, options.defaultTimeoutMs)));
  const failed = checks.filter((_, i) => dependencies[i].status === 'down');
  const status: HealthReport['status'] =
    failed.length === 0 ? 'ok' : failed.some((c) => c.critical !== false) ? 'down' : 'degraded';
  return {
    service: options.service,
    status,
    version: options.version,
    uptimeSeconds: Math.round(process.uptime()),
    dependencies,
  };
}

/** The HTTP status for a report: 503 when a critical dependency is down, so orchestrators stop routing to it. */
export function healthHttpStatus(report: HealthReport): number {
  return report.status === 'down' ? 503 : 200;
}

function elapsed(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 10) / 10;
}

function describe(error: unknown): string {
  // Connecting to a host name with several addresses fails with an AggregateError and no message.
  const text =
    error instanceof AggregateError && error.message === ''
      ? error.errors.map((e: unknown) => describe(e)).join('; ')
      : error instanceof Error
        ? error.message || error.name
        : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
