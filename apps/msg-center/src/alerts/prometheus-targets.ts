import type { JobType, PrometheusTargetGroup } from '@voltdepot/shared-contracts';
import { JobTypes } from '@voltdepot/shared-contracts';
import type { AlertRow } from './alert.repository';
import { credentialsToHeader } from './evaluation/alert-probes';
import { AlertTargetError, parseAlertTarget } from './evaluation/alert-target';

/** Where a target group comes from: the platform's own infrastructure, an alert, or Prometheus itself. */
export type TargetSource = 'platform' | 'alert' | 'prometheus';

/** The platform's infrastructure this service is configured with. */
export type PlatformEndpoints = { databaseUrl: string; redisUrl: string; kafkaBrokers: string[] };

/** `host:port` of a URL (default port of its scheme when it has none); credentials never included. */
export function hostPortOf(url: string, defaultPort: number): string | undefined {
  try {
    const u = new URL(url);
    if (u.hostname === '') return undefined;
    return `${u.hostname}:${u.port === '' ? defaultPort : u.port}`;
  } catch {
    return undefined;
  }
}

/** The job type a `job` query names (case-insensitive), if it names one. */
export function jobTypeOf(job: string | undefined): JobType | undefined {
  const upper = job?.trim().toUpperCase();
  return (JobTypes as readonly string[]).includes(upper ?? '') ? (upper as JobType) : undefined;
}

/** Target groups of the infrastructure msg-center itself uses (PostgreSQL, Redis, Kafka). */
export function platformTargets(
  endpoints: PlatformEndpoints,
  job: string | undefined,
): PrometheusTargetGroup[] {
  const postgres = hostPortOf(endpoints.databaseUrl, 5432);
  const redis = hostPortOf(endpoints.redisUrl, 6379);
  const candidates: [JobType, string, string[]][] = [
    ['REDIS', 'redis', redis ? [redis] : []],
    ['KAFKA', 'kafka', endpoints.kafkaBrokers],
    ['CONNECTION', 'postgresql', postgres ? [postgres] : []],
    ['CONNECTION', 'redis', redis ? [redis] : []],
    ['CONNECTION', 'kafka', endpoints.kafkaBrokers],
  ];
  const wanted = job === undefined ? undefined : jobTypeOf(job);
  if (job !== undefined && wanted === undefined) return [];
  return candidates
    .filter(([type, , targets]) => targets.length > 0 && (wanted === undefined || type === wanted))
    .map(([type, name, targets]) => ({
      targets: [...targets],
      labels: { job: type.toLowerCase(), source: 'platform', name },
    }));
}

/**
 * The scrape (or probe) address of an alert's target in Prometheus HTTP SD terms: `host:port` with
 * `__scheme__`/`__metrics_path__` for /metrics endpoints, the URL for HTTP checks (blackbox style),
 * `host:port` for TCP, Redis and Kafka; none for `local` and `promql:` targets.
 */
export function alertTargetGroup(alert: AlertRow, kafkaBrokers: string[]): PrometheusTargetGroup | undefined {
  let parsed;
  try {
    parsed = parseAlertTarget(alert.jobType as JobType, alert.target, kafkaBrokers);
  } catch (error) {
    if (error instanceof AlertTargetError) return undefined;
    throw error;
  }
  const labels: Record<string, string> = {
    job: alert.jobType.toLowerCase(),
    source: 'alert',
    alert: alert.name,
    alert_group: alert.alertGroup,
    level: alert.level,
  };
  switch (parsed.kind) {
    case 'http':
      // Discovery output is readable by any holder of the alerts permission: no credentials in it.
      return { targets: [credentialsToHeader(parsed.url).url], labels };
    case 'tcp':
      return {
        targets: [`${parsed.host.includes(':') ? `[${parsed.host}]` : parsed.host}:${parsed.port}`],
        labels,
      };
    case 'redis': {
      const hp = hostPortOf(parsed.url, 6379);
      return hp === undefined ? undefined : { targets: [hp], labels };
    }
    case 'kafka':
      return { targets: [...parsed.brokers], labels: { ...labels, consumer_group: parsed.group } };
    case 'scrape': {
      const url = new URL(parsed.url);
      const hp = hostPortOf(parsed.url, url.protocol === 'https:' ? 443 : 80)!;
      return {
        targets: [hp],
        labels: { ...labels, __scheme__: url.protocol.replace(':', ''), __metrics_path__: url.pathname },
      };
    }
    case 'local':
    case 'promql':
      return undefined;
  }
}

type ActiveTarget = {
  labels: Record<string, string>;
  scrapePool?: string;
  scrapeUrl?: string;
  health?: string;
  lastError?: string;
};

/** A Prometheus target belongs to `job` when its job label equals it or contains it (`node` ⊂ `node-exporter`). */
export function prometheusJobMatches(targetJob: string | undefined, job: string | undefined): boolean {
  if (job === undefined) return true;
  const wanted = job.trim().toLowerCase();
  const actual = (targetJob ?? '').toLowerCase();
  return actual === wanted || actual.includes(wanted);
}

/** The active targets of a Prometheus server (`GET /api/v1/targets?state=active`) for `job`. */
export async function prometheusTargets(
  baseUrl: string,
  job: string | undefined,
  timeoutMs: number,
): Promise<PrometheusTargetGroup[]> {
  const { url, headers } = credentialsToHeader(`${baseUrl.replace(/\/+$/, '')}/api/v1/targets?state=active`);
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers });
  const body = (await res.json().catch(() => undefined)) as
    { status?: string; data?: { activeTargets?: ActiveTarget[] } } | undefined;
  if (!res.ok || body?.status !== 'success') throw new Error(`Prometheus answered HTTP ${res.status}`);
  return (body.data?.activeTargets ?? [])
    .filter((t) => prometheusJobMatches(t.labels['job'], job) && t.labels['instance'])
    .map((t) => ({
      targets: [t.labels['instance']],
      labels: {
        job: t.labels['job'] ?? '',
        source: 'prometheus',
        health: t.health ?? 'unknown',
        ...(t.scrapeUrl ? { scrape_url: t.scrapeUrl } : {}),
      },
    }));
}
