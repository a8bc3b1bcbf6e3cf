import { readFile } from 'node:fs/promises';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { classifyAddress, type OutboundGuard } from '@voltdepot/server-core';
import Redis from 'ioredis';
import { Kafka, logLevel } from 'kafkajs';
import type { AlertTarget, MetricSelector } from './alert-target';
import { nodeCpuSeconds, parsePrometheusText, Sample, sumOf, sumOfAnyPrefix } from './prometheus-text';

/**
 * One reading of a target. `value` is null when nothing could be measured (then `error` says why);
 * `down` marks a target that did not answer (an HTTP or TCP check still has the value 0 then).
 */
export type Measurement = { target: string; value: number | null; down: boolean; error?: string };

export type ProbeOptions = {
  /** Time-out of every network call of one check. */
  timeoutMs: number;
  /** Gap between the two readings a CPU percentage is computed from. */
  cpuSampleMs: number;
  /** Base URL of a Prometheus HTTP API (`promql:` targets); undefined when none is configured. */
  prometheusUrl?: string;
  /**
   * Every connection to a target goes through it (resolved, checked, pinned; redirects re-checked): an
   * alert's target is what a user typed.
   */
  outbound: OutboundGuard;
  /**
   * The deployment's METRICS_TOKEN: sent as a bearer token to a /metrics target inside the network (the
   * platform's own services ask for it) that brings no credentials of its own; never to a public host.
   */
  metricsToken?: string;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * An error as one line, with its cause (fetch hides the network error there: ECONNREFUSED, time-outs).
 * Duck-typed: errors from Node's own fetch may come from another realm than this module's `Error`.
 */
export function messageOf(error: unknown): string {
  if (typeof error !== 'object' || error === null || typeof (error as Error).message !== 'string') {
    return String(error);
  }
  const e = error as Error & { code?: string; cause?: unknown; errors?: unknown[] };
  const name = !e.name || e.name === 'Error' ? '' : `${e.name}: `;
  const own = e.message || e.code || '';
  const causes = Array.isArray(e.errors) && e.errors.length > 0 ? e.errors : e.cause == null ? [] : [e.cause];
  const inner = causes.map((c) => messageOf(c)).join('; ');
  return `${name}${own}${inner ? ` (${inner})` : ''}`;
}

/**
 * A URL's credentials as a Basic authorization header: fetch refuses URLs that carry them (and its error
 * would put the password into the alert's message). Returns the URL without them, to fetch and to show.
 */
export function credentialsToHeader(url: string): { url: string; headers: Record<string, string> } {
  const u = new URL(url);
  if (u.username === '' && u.password === '') return { url, headers: {} };
  const basic = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString(
    'base64',
  );
  u.username = '';
  u.password = '';
  return { url: u.toString(), headers: { authorization: `Basic ${basic}` } };
}

/** Reads the metrics and health of alert targets. Never throws for an unreachable target: it measures it as down. */
export class AlertProbes {
  constructor(private readonly options: ProbeOptions) {}

  async measure(target: AlertTarget, label: string): Promise<Measurement[]> {
    try {
      switch (target.kind) {
        case 'http':
          return [await this.http(target.url, target.metric, label)];
        case 'tcp':
          return [await this.tcp(target.host, target.port, target.metric, label)];
        case 'redis':
          return [{ target: label, value: await this.redis(target.url, target.field), down: false }];
        case 'kafka':
          return [{ target: label, value: await this.kafkaLag(target), down: false }];
        case 'local':
          return [{ target: label, value: await this.local(target.metric), down: false }];
        case 'scrape':
          return [{ target: label, value: await this.scrape(target.url, target.metric), down: false }];
        case 'promql':
          return await this.promql(target.query);
      }
    } catch (error) {
      return [{ target: label, value: null, down: true, error: messageOf(error) }];
    }
  }

  private async http(target: string, metric: 'up' | 'latency', label: string): Promise<Measurement> {
    const started = performance.now();
    try {
      const { url, headers } = credentialsToHeader(target);
      const res = await this.options.outbound.fetch(url, {
        signal: AbortSignal.timeout(this.options.timeoutMs),
        headers,
      });
      // Enough of the page to see a health status; a target serving a large file is not read whole.
      const { text: body } = await readCapped(res, HEALTH_BODY_BYTES);
      const ms = Math.round(performance.now() - started);
      let problem = res.ok ? undefined : `HTTP ${res.status}`;
      if (problem === undefined) problem = unhealthyBody(body);
      if (problem !== undefined) {
        return { target: label, value: metric === 'up' ? 0 : null, down: true, error: problem };
      }
      return { target: label, value: metric === 'up' ? 1 : ms, down: false };
    } catch (error) {
      return { target: label, value: metric === 'up' ? 0 : null, down: true, error: messageOf(error) };
    }
  }

  private async tcp(
    host: string,
    port: number,
    metric: 'up' | 'latency',
    label: string,
  ): Promise<Measurement> {
    const started = performance.now();
    const down = (error: string): Measurement => ({
      target: label,
      value: metric === 'up' ? 0 : null,
      down: true,
      error,
    });
    let socket;
    try {
      socket = await this.options.outbound.connect(host, port);
    } catch (error) {
      return down(messageOf(error));
    }
    const opened = socket;
    return new Promise((resolve) => {
      const done = (m: Measurement) => {
        clearTimeout(timer);
        opened.destroy();
        resolve(m);
      };
      const timer = setTimeout(
        () => done(down(`no connection within ${this.options.timeoutMs} ms`)),
        this.options.timeoutMs,
      );
      opened.once('connect', () =>
        done({
          target: label,
          value: metric === 'up' ? 1 : Math.round(performance.now() - started),
          down: false,
        }),
      );
      opened.once('error', (error) => done(down(messageOf(error))));
    });
  }

  private async redis(url: string, field: string): Promise<number> {
    const target = new URL(url);
    // To the checked address (the name is kept for TLS), with what the URL says.
    const [checked] = await this.options.outbound.resolveAllowed(target.hostname);
    const client = new Redis({
      host: checked.address,
      port: target.port === '' ? 6379 : Number(target.port),
      username: target.username === '' ? undefined : decodeURIComponent(target.username),
      password: target.password === '' ? undefined : decodeURIComponent(target.password),
      db: /^\/\d+$/.test(target.pathname) ? Number(target.pathname.slice(1)) : 0,
      tls:
        target.protocol === 'rediss:' ? { servername: target.hostname.replace(/^\[|\]$/g, '') } : undefined,
      lazyConnect: true,
      connectTimeout: this.options.timeoutMs,
      commandTimeout: this.options.timeoutMs,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const info = await client.info();
      const line = info.split(/\r?\n/).find((l) => l.startsWith(`${field}:`));
      if (line === undefined) throw new Error(`Redis INFO has no field '${field}'`);
      const value = Number(line.slice(field.length + 1));
      if (!Number.isFinite(value)) throw new Error(`Redis INFO field '${field}' is not a number`);
      return value;
    } finally {
      client.disconnect();
    }
  }

  /** Sum over partitions of (end offset − committed offset); a partition never committed counts from its start. */
  private async kafkaLag(target: Extract<AlertTarget, { kind: 'kafka' }>): Promise<number> {
    const outbound = this.options.outbound;
    for (const broker of target.brokers) await outbound.resolveAllowed(broker.replace(/:\d+$/, ''));
    const kafka = new Kafka({
      clientId: 'msg-center-alerts',
      brokers: target.brokers,
      // The brokers the cluster announces are connected to under the same rules as those typed.
      socketFactory: ({ host, port, onConnect }) => outbound.socket(host, port, onConnect),
      connectionTimeout: this.options.timeoutMs,
      requestTimeout: this.options.timeoutMs,
      // The group coordinator lookup needs a retry right after connecting; keep them short.
      retry: { retries: 3, initialRetryTime: 100, maxRetryTime: this.options.timeoutMs },
      logLevel: logLevel.NOTHING,
    });
    const admin = kafka.admin();
    try {
      await admin.connect();
      const committed = await admin.fetchOffsets({
        groupId: target.group,
        ...(target.topic === undefined ? {} : { topics: [target.topic] }),
      });
      if (target.topic === undefined && committed.length === 0) {
        throw new Error(`consumer group '${target.group}' has no committed offsets`);
      }
      let lag = 0;
      for (const { topic, partitions } of committed) {
        const ends = await admin.fetchTopicOffsets(topic);
        for (const end of ends) {
          const offset = Number(partitions.find((p) => p.partition === end.partition)?.offset ?? '-1');
          const from = offset < 0 ? Number(end.low) : offset;
          lag += Math.max(0, Number(end.high) - from);
        }
      }
      return lag;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  private async local(metric: 'cpu' | 'memory' | 'load1'): Promise<number> {
    if (metric === 'load1') return round(loadavg()[0]);
    if (metric === 'memory') {
      const info = await readFile('/proc/meminfo', 'utf8').catch(() => undefined);
      const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(info ?? '')?.[1]);
      const total = kib('MemTotal');
      const available = kib('MemAvailable');
      if (total > 0 && Number.isFinite(available)) return round((1 - available / total) * 100);
      return round((1 - freemem() / totalmem()) * 100);
    }
    const times = () =>
      cpus().reduce(
        (acc, cpu) => {
          const t = cpu.times;
          acc.total += t.user + t.nice + t.sys + t.idle + t.irq;
          acc.busy += t.user + t.nice + t.sys + t.irq;
          return acc;
        },
        { busy: 0, total: 0 },
      );
    const a = times();
    await sleep(this.options.cpuSampleMs);
    const b = times();
    return b.total > a.total ? round(((b.busy - a.busy) / (b.total - a.total)) * 100) : 0;
  }

  private async fetchSamples(target: string): Promise<Sample[]> {
    const { url, headers } = credentialsToHeader(target);
    const token = this.options.metricsToken;
    if (token !== undefined && headers['authorization'] === undefined && (await this.insideNetwork(url))) {
      headers['authorization'] = `Bearer ${token}`;
    }
    const res = await this.options.outbound.fetch(url, {
      signal: AbortSignal.timeout(this.options.timeoutMs),
      headers: { ...headers, accept: 'text/plain;version=0.0.4' },
    });
    if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
    const { text, truncated } = await readCapped(res, METRICS_BODY_BYTES);
    if (truncated)
      throw new Error(`${url} serves more than ${METRICS_BODY_BYTES / 1_048_576} MiB of metrics`);
    return parsePrometheusText(text);
  }

  /** Whether every address of the URL's host is inside the network (loopback, private). */
  private async insideNetwork(url: string): Promise<boolean> {
    try {
      const addresses = await this.options.outbound.resolveAllowed(new URL(url).hostname);
      return addresses.every(({ address }) => classifyAddress(address) === 'internal');
    } catch {
      return false;
    }
  }

  private async scrape(target: string, metric: 'cpu' | 'memory' | MetricSelector): Promise<number> {
    if (metric === 'cpu') return this.scrapeCpu(target);
    const samples = await this.fetchSamples(target);
    const url = credentialsToHeader(target).url;
    if (metric === 'memory') {
      const total = sumOf(samples, { name: 'node_memory_MemTotal_bytes', labels: {} });
      const available = sumOf(samples, { name: 'node_memory_MemAvailable_bytes', labels: {} });
      if (total === undefined || available === undefined || total <= 0) {
        throw new Error(
          `${url} has no node_memory_MemTotal_bytes/MemAvailable_bytes; name a metric instead (e.g. #process_resident_memory_bytes)`,
        );
      }
      return round((1 - available / total) * 100);
    }
    const value = sumOf(samples, metric);
    if (value === undefined) throw new Error(`${url} has no metric ${selectorText(metric)}`);
    return value;
  }

  /** CPU busy %: node_exporter's CPUs, else the process's CPU time rate (% of one core), else a usage gauge. */
  private async scrapeCpu(target: string): Promise<number> {
    const url = credentialsToHeader(target).url;
    const first = await this.fetchSamples(target);
    const startedAt = performance.now();
    const gauge = sumOfAnyPrefix(first, 'process_cpu_usage');
    const node1 = nodeCpuSeconds(first);
    const proc1 = sumOfAnyPrefix(first, 'process_cpu_seconds_total');
    if (node1 === undefined && proc1 === undefined) {
      if (gauge !== undefined) return round(gauge * 100);
      throw new Error(`${url} has no CPU metric (node_cpu_seconds_total, process_cpu_seconds_total)`);
    }
    await sleep(this.options.cpuSampleMs);
    const second = await this.fetchSamples(target);
    const seconds = (performance.now() - startedAt) / 1000;
    const node2 = nodeCpuSeconds(second);
    if (node1 !== undefined && node2 !== undefined) {
      const total = node2.total - node1.total;
      return total > 0 ? round(((node2.busy - node1.busy) / total) * 100) : 0;
    }
    const proc2 = sumOfAnyPrefix(second, 'process_cpu_seconds_total') ?? proc1!;
    return round(((proc2 - proc1!) / seconds) * 100);
  }

  /** Instant query; each series of a vector is a target (named by its instance label, else its labels). */
  private async promql(query: string): Promise<Measurement[]> {
    const base = this.options.prometheusUrl;
    if (base === undefined) {
      return [
        { target: `promql:${query}`, value: null, down: true, error: 'MSG_PROMETHEUS_URL is not configured' },
      ];
    }
    const { url, headers } = credentialsToHeader(
      `${base.replace(/\/+$/, '')}/api/v1/query?query=${encodeURIComponent(query)}`,
    );
    const res = await fetch(url, { signal: AbortSignal.timeout(this.options.timeoutMs), headers });
    const body = (await res.json().catch(() => undefined)) as PrometheusQueryAnswer | undefined;
    if (!res.ok || body?.status !== 'success') {
      throw new Error(`Prometheus answered HTTP ${res.status}: ${body?.error ?? 'no result'}`);
    }
    const data = body.data;
    if (data.resultType === 'scalar') {
      return [{ target: `promql:${query}`, value: Number(data.result[1]), down: false }];
    }
    if (data.resultType !== 'vector')
      throw new Error(`PromQL result type ${data.resultType} is not supported`);
    return data.result.map((series) => ({
      target: seriesName(series.metric),
      value: Number(series.value[1]),
      down: false,
    }));
  }
}

type PrometheusQueryAnswer = {
  status: 'success' | 'error';
  error?: string;
  data:
    | { resultType: 'vector'; result: { metric: Record<string, string>; value: [number, string] }[] }
    | { resultType: 'scalar'; result: [number, string] }
    | { resultType: 'matrix' | 'string'; result: unknown };
};

function seriesName(metric: Record<string, string>): string {
  if (metric['instance']) return metric['instance'];
  const labels = Object.entries(metric)
    .filter(([k]) => k !== '__name__')
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  return `${metric['__name__'] ?? ''}{${labels}}`;
}

function selectorText(selector: MetricSelector): string {
  const labels = Object.entries(selector.labels).map(([k, v]) => `${k}="${v}"`);
  return labels.length === 0 ? selector.name : `${selector.name}{${labels.join(',')}}`;
}

/** A health body that says it is not healthy (`{"status":"down"}`, our `/health` when a dependency is down). */
function unhealthyBody(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const status = (parsed as { status?: unknown }).status;
  if (typeof status === 'string' && /^(down|error|fail(ed)?|out_of_service)$/i.test(status)) {
    return `health status ${status}`;
  }
  return undefined;
}

/** How much of a health page is read (its status is near the top). */
const HEALTH_BODY_BYTES = 64 * 1024;
/** The largest /metrics page scraped. */
const METRICS_BODY_BYTES = 16 * 1_048_576;

/** The body's first `maxBytes` as text, and whether there was more (the rest is not downloaded). */
export async function readCapped(
  res: Response,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean }> {
  if (!res.body) return { text: '', truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - size;
    if (value.byteLength > room) {
      chunks.push(value.subarray(0, room));
      size = maxBytes;
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks)), truncated };
}
