import type { JobType } from '@voltdepot/shared-contracts';

/** A metric of a Prometheus text exposition: a name and optional label matchers (`name{a="b"}`). */
export type MetricSelector = { name: string; labels: Record<string, string> };

/** What an alert's target means, per job type (see `parseAlertTarget` for the accepted forms). */
export type AlertTarget =
  /** HTTP health check: 1 when it answers 2xx (0 when down), or the response time in ms. */
  | { kind: 'http'; url: string; metric: 'up' | 'latency' }
  /** TCP connection check: 1 when a connection opens (0 when refused or timed out), or the connect time in ms. */
  | { kind: 'tcp'; host: string; port: number; metric: 'up' | 'latency' }
  /** A numeric field of Redis INFO (default used_memory, bytes). */
  | { kind: 'redis'; url: string; field: string }
  /** Consumer lag (messages) of a Kafka consumer group, over one topic or every topic it committed. */
  | { kind: 'kafka'; brokers: string[]; group: string; topic?: string }
  /** The host the worker runs on: CPU busy %, memory used %, 1-minute load average. */
  | { kind: 'local'; metric: 'cpu' | 'memory' | 'load1' }
  /** A Prometheus /metrics endpoint (a service's own, node_exporter, a JVM): cpu %, memory % or one metric. */
  | { kind: 'scrape'; url: string; metric: 'cpu' | 'memory' | MetricSelector }
  /** A PromQL expression evaluated by the configured Prometheus HTTP API; every series is its own target. */
  | { kind: 'promql'; query: string };

export class AlertTargetError extends Error {}

const HOST_PORT = /^(\[[0-9a-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/i;
const METRIC = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?$/;
const LABEL = /^\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*$/;

/** The forms each job type accepts, as shown in error messages. */
export const TARGET_FORMS: Record<JobType, string> = {
  HTTP: 'http(s)://host[:port]/path[#up|#latency]',
  CONNECTION: '[tcp://]host:port[#up|#latency]',
  REDIS: '[redis://][:password@]host:port[/db][#<INFO field>]',
  KAFKA: '[kafka://host:port[,host:port]/]<consumer group>[/<topic>]',
  NODE: 'local#cpu|memory|load1, host:port[#metric] or http(s)://host:port/metrics[#metric]',
  JAVA: 'host:port[#metric] or http(s)://host:port/path[#metric]',
};

function splitFragment(text: string): [string, string | undefined] {
  const i = text.indexOf('#');
  return i < 0 ? [text, undefined] : [text.slice(0, i), text.slice(i + 1)];
}

function port(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new AlertTargetError(`invalid port ${text}`);
  return n;
}

function httpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AlertTargetError(`'${text}' is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AlertTargetError(`'${text}' is not an http(s) URL`);
  }
  return url;
}

function upOrLatency(fragment: string | undefined): 'up' | 'latency' {
  if (fragment === undefined || fragment === '' || fragment === 'up') return 'up';
  if (fragment === 'latency') return 'latency';
  throw new AlertTargetError(`unknown metric '${fragment}' (up or latency)`);
}

export function parseMetricSelector(text: string): MetricSelector {
  const m = METRIC.exec(text.trim());
  if (!m) throw new AlertTargetError(`'${text}' is not a metric name`);
  const labels: Record<string, string> = {};
  if (m[2] !== undefined && m[2].trim() !== '') {
    for (const part of m[2].split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)) {
      const l = LABEL.exec(part);
      if (!l) throw new AlertTargetError(`'${part.trim()}' is not a label matcher (name="value")`);
      labels[l[1]] = l[2].replace(/\\(.)/g, '$1');
    }
  }
  return { name: m[1], labels };
}

function scrapeMetric(fragment: string | undefined): 'cpu' | 'memory' | MetricSelector {
  if (fragment === undefined || fragment === '' || fragment === 'cpu') return 'cpu';
  if (fragment === 'memory') return 'memory';
  return parseMetricSelector(fragment);
}

function scrape(text: string): AlertTarget {
  const [base, fragment] = splitFragment(text);
  if (/^https?:\/\//i.test(base)) {
    const url = httpUrl(base);
    if (url.pathname === '/' || url.pathname === '') url.pathname = '/metrics';
    return { kind: 'scrape', url: url.toString(), metric: scrapeMetric(fragment) };
  }
  const hp = HOST_PORT.exec(base);
  if (!hp) throw new AlertTargetError(`'${base}' is not host:port`);
  port(hp[2]);
  return { kind: 'scrape', url: `http://${base}/metrics`, metric: scrapeMetric(fragment) };
}

/**
 * Parses an alert's target for its job type. Accepted forms (any job type may also be `promql:<expr>`):
 * HTTP `http(s)://host/path[#up|#latency]`; CONNECTION `[tcp://]host:port[#up|#latency]`;
 * REDIS `[redis://][:password@]host:port[/db][#<INFO field>]` (default used_memory);
 * KAFKA `[kafka://brokers/]<group>[/<topic>]` (brokers default to `defaultBrokers`);
 * NODE `local#cpu|memory|load1` or a /metrics endpoint (`host:port` or a URL) with `#cpu` (default),
 * `#memory` or `#<metric>{label="value"}`; JAVA a /metrics endpoint likewise.
 */
export function parseAlertTarget(jobType: JobType, raw: string, defaultBrokers: string[] = []): AlertTarget {
  const text = raw.trim();
  if (text.startsWith('promql:')) {
    const query = text.slice('promql:'.length).trim();
    if (query === '') throw new AlertTargetError('the PromQL expression is empty');
    return { kind: 'promql', query };
  }
  switch (jobType) {
    case 'HTTP': {
      const [base, fragment] = splitFragment(text);
      return { kind: 'http', url: httpUrl(base).toString(), metric: upOrLatency(fragment) };
    }
    case 'CONNECTION': {
      const [base, fragment] = splitFragment(text);
      const hp = HOST_PORT.exec(base.replace(/^tcp:\/\//i, ''));
      if (!hp) throw new AlertTargetError(`'${base}' is not host:port`);
      return {
        kind: 'tcp',
        host: hp[1].replace(/^\[|\]$/g, ''),
        port: port(hp[2]),
        metric: upOrLatency(fragment),
      };
    }
    case 'REDIS': {
      const [base, fragment] = splitFragment(text);
      const withScheme = /^rediss?:\/\//i.test(base) ? base : `redis://${base}`;
      let url: URL;
      try {
        url = new URL(withScheme);
      } catch {
        throw new AlertTargetError(`'${base}' is not a Redis address`);
      }
      if (url.hostname === '') throw new AlertTargetError(`'${base}' has no host`);
      if (url.port !== '') port(url.port);
      const field = fragment === undefined || fragment === '' ? 'used_memory' : fragment;
      if (!/^[a-z0-9_]+$/i.test(field)) throw new AlertTargetError(`'${field}' is not an INFO field`);
      return { kind: 'redis', url: withScheme, field };
    }
    case 'KAFKA': {
      let rest = text;
      let brokers = defaultBrokers;
      const m = /^kafka:\/\/([^/]*)\/(.*)$/i.exec(text);
      if (m) {
        brokers = m[1]
          .split(',')
          .map((b) => b.trim())
          .filter(Boolean);
        for (const broker of brokers) {
          if (!HOST_PORT.exec(broker)) throw new AlertTargetError(`'${broker}' is not host:port`);
        }
        rest = m[2];
      }
      const [group, topic, ...more] = rest.split('/');
      if (!group || more.length > 0 || topic === '') {
        throw new AlertTargetError(`'${text}' is not <consumer group>[/<topic>]`);
      }
      if (brokers.length === 0) {
        throw new AlertTargetError('no Kafka brokers: write kafka://host:port/<group> or set KAFKA_BROKERS');
      }
      return { kind: 'kafka', brokers, group, ...(topic === undefined ? {} : { topic }) };
    }
    case 'NODE': {
      const [base, fragment] = splitFragment(text);
      if (base === 'local') {
        const metric = fragment ?? 'cpu';
        if (metric !== 'cpu' && metric !== 'memory' && metric !== 'load1') {
          throw new AlertTargetError(`unknown metric '${metric}' (cpu, memory or load1)`);
        }
        return { kind: 'local', metric };
      }
      return scrape(text);
    }
    case 'JAVA':
      return scrape(text);
  }
}

/** The parse error of a target as a message naming the accepted forms, or undefined when it is valid. */
export function targetProblem(
  jobType: JobType,
  raw: string,
  defaultBrokers: string[] = [],
): string | undefined {
  try {
    parseAlertTarget(jobType, raw, defaultBrokers);
    return undefined;
  } catch (error) {
    if (!(error instanceof AlertTargetError)) throw error;
    return `${error.message}; a ${jobType} target is ${TARGET_FORMS[jobType]} or promql:<expression>`;
  }
}

/** The hosts a target connects to (none for `local` and `promql:`), for the outbound rules. */
export function targetHosts(target: AlertTarget): string[] {
  switch (target.kind) {
    case 'http':
    case 'scrape':
    case 'redis':
      return [new URL(target.url).hostname];
    case 'tcp':
      return [target.host];
    case 'kafka':
      return target.brokers.map((broker) => broker.replace(/:\d+$/, ''));
    case 'local':
    case 'promql':
      return [];
  }
}

/** `scheme://user:password@` of a URL. */
const URL_CREDENTIALS = /^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i;
/** `[user]:password@` before a bare host (REDIS `:password@host:port`). */
const BARE_CREDENTIALS = /^[^@/#\s]*:[^@/#\s]*@/;

/** The target as shown in messages and throttle keys: credentials removed. */
export function displayTarget(raw: string): string {
  const text = raw.trim();
  if (text.startsWith('promql:')) return text;
  return URL_CREDENTIALS.test(text)
    ? text.replace(URL_CREDENTIALS, '$1')
    : text.replace(BARE_CREDENTIALS, '');
}
