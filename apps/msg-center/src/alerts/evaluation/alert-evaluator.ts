import { Inject, Injectable, Logger } from '@nestjs/common';
import { OutboundGuard, SERVICE_CONFIG } from '@voltdepot/server-core';
import type { ComparisonExpression, EventChannel, JobType, MsgStatus } from '@voltdepot/shared-contracts';
import type Redis from 'ioredis';
import type { MsgCenterConfig } from '../../app.config';
import { GroupRepository, type Recipient } from '../../groups/group.repository';
import { MessageDispatcher } from '../../jobs/message-dispatcher';
import { FREQUENCY_MS } from '../../rules/rule-fields';
import { formatBusinessTime } from '../../shared/business-time';
import { MSG_REDIS } from '../../shared/database.module';
import { AlertRepository, AlertRow } from '../alert.repository';
import { AlertProbes, Measurement } from './alert-probes';
import { AlertTargetError, displayTarget, parseAlertTarget } from './alert-target';

/** How long the "already notified" mark of an alert without a frequency lives if it never recovers. */
const EPISODE_TTL_MS = 30 * 86_400_000;

export type AlertCheck = {
  alertId: number;
  status: MsgStatus;
  value: number | null;
  measurements: (Measurement & { firing: boolean })[];
  /** Targets whose message was sent in this check (the others were throttled or not firing). */
  notified: string[];
};

/** GE: value ≥ threshold fires; LE: value ≤ threshold fires. */
export function crosses(expression: ComparisonExpression, value: number, threshold: number): boolean {
  return expression === 'GE' ? value >= threshold : value <= threshold;
}

/** A target that could not be measured fires too: an alert must not stay silent because its target is gone. */
export function isFiring(m: Measurement, expression: ComparisonExpression, threshold: number): boolean {
  return m.value === null ? true : crosses(expression, m.value, threshold);
}

/** Status of one check: EXCEPTION when the threshold is crossed, DOWN when the target did not answer, else UP. */
export function statusOf(measurements: (Measurement & { firing: boolean })[]): MsgStatus {
  const firing = measurements.filter((m) => m.firing);
  if (firing.length > 0) return firing.some((m) => m.down) ? 'DOWN' : 'EXCEPTION';
  return measurements.some((m) => m.down) ? 'DOWN' : 'UP';
}

/** The value shown for the alert: the worst reading in the direction of its expression. */
export function worstValue(expression: ComparisonExpression, values: (number | null)[]): number | null {
  const numbers = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (numbers.length === 0) return null;
  return expression === 'GE' ? Math.max(...numbers) : Math.min(...numbers);
}

/**
 * Checks one alert: measures its target, compares with the threshold, records value and status, and sends
 * its template to its group on its channels for each firing target, at most once per frequency window per
 * alert and target (without a frequency: once until the target recovers). Idempotent per round: the job
 * ids of the messages derive from the round, so a retried check sends nothing twice.
 */
@Injectable()
export class AlertEvaluator {
  private readonly logger = new Logger('AlertEvaluator');
  private readonly probes: AlertProbes;

  constructor(
    private readonly alerts: AlertRepository,
    private readonly groups: GroupRepository,
    private readonly dispatcher: MessageDispatcher,
    @Inject(MSG_REDIS) private readonly redis: Redis,
    @Inject(SERVICE_CONFIG)
    private readonly config: Pick<
      MsgCenterConfig,
      | 'BUSINESS_TIME_ZONE'
      | 'MSG_QUEUE_PREFIX'
      | 'MSG_ALERT_TIMEOUT_MS'
      | 'MSG_ALERT_CPU_SAMPLE_MS'
      | 'MSG_PROMETHEUS_URL'
      | 'KAFKA_BROKERS'
      | 'METRICS_TOKEN'
    >,
    outbound: OutboundGuard,
  ) {
    this.probes = new AlertProbes({
      timeoutMs: config.MSG_ALERT_TIMEOUT_MS,
      cpuSampleMs: config.MSG_ALERT_CPU_SAMPLE_MS,
      prometheusUrl: config.MSG_PROMETHEUS_URL,
      outbound,
      metricsToken: config.METRICS_TOKEN,
    });
  }

  async evaluate(alertId: number, round: string): Promise<AlertCheck | undefined> {
    const alert = await this.alerts.find(alertId);
    if (alert === undefined || !alert.enabled) return undefined;
    const expression = alert.expression as ComparisonExpression;
    const readings = await this.measure(alert);
    const measurements = readings.map((m) => ({ ...m, firing: isFiring(m, expression, alert.threshold) }));
    const status = statusOf(measurements);
    const value = worstValue(
      expression,
      measurements.map((m) => m.value),
    );
    // Recorded before anything is sent: whoever gets the message and opens the alert sees the status and
    // value it reports (a retried check records them again and sends nothing twice).
    await this.alerts.recordCheck(alert.id, value, status);
    const notified: string[] = [];
    // Every target of the alert goes to the same group: read its members once per check.
    let recipients: Recipient[] | undefined;
    for (const m of measurements) {
      if (!m.firing) {
        await this.recovered(alert, m.target);
        continue;
      }
      const eventKey = `alert${alert.id}.${round}.${m.target}`;
      if (!(await this.claim(alert, m.target, eventKey))) continue;
      recipients ??= alert.groupId === null ? [] : await this.groups.recipients(alert.groupId);
      await this.notify(alert, m, status, eventKey, recipients);
      notified.push(m.target);
    }
    return { alertId: alert.id, status, value, measurements, notified };
  }

  private async measure(alert: AlertRow): Promise<Measurement[]> {
    const label = displayTarget(alert.target);
    try {
      const target = parseAlertTarget(
        alert.jobType as JobType,
        alert.target,
        this.config.KAFKA_BROKERS ?? [],
      );
      return await this.probes.measure(target, label);
    } catch (error) {
      if (!(error instanceof AlertTargetError)) throw error;
      return [{ target: label, value: null, down: true, error: `invalid target: ${error.message}` }];
    }
  }

  private key(alert: AlertRow, target: string, kind: 'throttle' | 'episode'): string {
    return `${this.config.MSG_QUEUE_PREFIX}:alert:${kind}:${alert.id}:${target}`;
  }

  /** The first check of a window (or of an episode) owns it; a retry of that same check still passes. */
  private async claim(alert: AlertRow, target: string, eventKey: string): Promise<boolean> {
    const frequency = alert.frequency as keyof typeof FREQUENCY_MS | null;
    const key = this.key(alert, target, frequency === null ? 'episode' : 'throttle');
    const ttl = frequency === null ? EPISODE_TTL_MS : FREQUENCY_MS[frequency];
    if ((await this.redis.set(key, eventKey, 'PX', ttl, 'NX')) === 'OK') return true;
    return (await this.redis.get(key)) === eventKey;
  }

  /** Without a frequency, a recovered target may notify again on its next failure. */
  private async recovered(alert: AlertRow, target: string): Promise<void> {
    if (alert.frequency === null) await this.redis.del(this.key(alert, target, 'episode'));
  }

  private async notify(
    alert: AlertRow,
    m: Measurement,
    status: MsgStatus,
    eventKey: string,
    recipients: Recipient[],
  ): Promise<void> {
    const values: Record<string, string | number> = {
      name: alert.name,
      alertName: alert.name,
      alertGroup: alert.alertGroup,
      jobType: alert.jobType,
      target: m.target,
      value: m.value === null ? '' : formatNumber(m.value),
      threshold: formatNumber(alert.threshold),
      expression: alert.expression === 'GE' ? '≥' : '≤',
      level: alert.level,
      status: m.down ? 'DOWN' : status,
      error: m.error ?? '',
      time: formatBusinessTime(new Date(), this.config.BUSINESS_TIME_ZONE),
    };
    const outcome = await this.dispatcher.dispatch({
      eventKey,
      ruleKind: 'alert',
      ruleId: alert.id,
      templateId: alert.templateId,
      channels: alert.channels as EventChannel[],
      recipients,
      values,
      fallback: {
        title: `[${alert.level}] ${alert.name}`,
        content: [
          `target: ${values['target']}`,
          `value: ${values['value'] === '' ? '-' : values['value']} (${values['expression']} ${values['threshold']})`,
          `status: ${values['status']}`,
          ...(m.error ? [`error: ${m.error}`] : []),
          `time: ${values['time']}`,
        ].join('\n'),
      },
    });
    this.logger.log(
      `alert ${alert.id} on ${m.target}: ${outcome.queued.length} queued, ${outcome.failed.length} failed`,
    );
  }
}

function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}
