import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AbandonRule } from '@voltdepot/shared-events';
import type { IdTagLookupResult } from '../authorization/id-tag.cache';
import { CentralSystemActions, ChargePointActions } from '@voltdepot/shared-ocpp';

const PREFIX = 'voltdepot_ocpp_';
const KNOWN_ACTIONS = new Set<string>([...ChargePointActions, ...CentralSystemActions]);

/** What a pile's call came to: answered with a CALLRESULT or a CALLERROR, or not a call we could read. */
export type InboundResult = 'result' | 'call_error' | 'malformed';
/** What a call we sent to a pile came to. */
export type OutboundResult = 'result' | 'call_error' | 'timeout' | 'disconnected';
export type CommandResult = 'completed' | 'failed' | 'timeout' | 'offline' | 'invalid' | 'not_accepted';
/** Why the gateway (or the pile) ended a connection; `other` is anything else, the pile's own closes included. */
export type CloseReason = 'replaced' | 'revoked' | 'bad_messages' | 'other';
export type MessageLogDropReason = 'buffer_full' | 'write_failed';

export type GatewayMetricSources = {
  connectedPiles: () => number;
  /** Items waiting in the group-commit writers. */
  writeBacklog: () => number;
};

/** Handshake refusals are counted under these statuses only (anything else as `other`). */
const HANDSHAKE_STATUSES = new Set(['400', '401', '404', '429', '503']);

/**
 * The gateway's Prometheus metrics, registered on the service's registry (so they appear on /metrics
 * next to the HTTP and process metrics). Action labels are limited to the OCPP 1.6 actions ('unknown'
 * for anything else a pile sends), so a pile cannot create series at will.
 */
export class GatewayMetrics {
  private readonly messages: Counter<'direction' | 'action' | 'result'>;
  private readonly callDuration: Histogram<'action'>;
  private readonly callErrors: Counter<'code'>;
  private readonly commands: Counter<'action' | 'result'>;
  private readonly writeBatch: Histogram<'writer'>;
  private readonly badMessageCloses: Counter;
  private readonly handshakesRefused: Counter<'status'>;
  private readonly connectionsClosed: Counter<'reason'>;
  private readonly quarantinedStops: Counter;
  private readonly flaggedSamples: Counter<'flag'>;
  private readonly messageLogDropped: Counter<'reason'>;
  private readonly messageLogRetries: Counter;
  private readonly idTagLookups: Counter<'result'>;
  private readonly sessionsClosed: Counter<'rule'>;
  private readonly repeatedStops: Counter<'disagrees'>;

  constructor(
    readonly registry: Registry,
    sources: GatewayMetricSources,
  ) {
    const registers = [registry];
    new Gauge({
      name: `${PREFIX}connected_piles`,
      help: 'Piles connected to this replica',
      registers,
      collect() {
        this.set(sources.connectedPiles());
      },
    });
    new Gauge({
      name: `${PREFIX}write_backlog`,
      help: 'Pile messages waiting to be written in a group commit',
      registers,
      collect() {
        this.set(sources.writeBacklog());
      },
    });
    this.messages = new Counter({
      name: `${PREFIX}messages_total`,
      help: 'OCPP calls by direction (in: from piles, out: to piles), action and result',
      labelNames: ['direction', 'action', 'result'],
      registers,
    });
    this.callDuration = new Histogram({
      name: `${PREFIX}call_duration_seconds`,
      help: 'Time from receiving a pile call to having its answer, by action',
      labelNames: ['action'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.callErrors = new Counter({
      name: `${PREFIX}call_errors_total`,
      help: 'CALLERRORs sent to piles, by OCPP error code',
      labelNames: ['code'],
      registers,
    });
    this.commands = new Counter({
      name: `${PREFIX}commands_total`,
      help: 'Commands requested through the command interface, by action and result',
      labelNames: ['action', 'result'],
      registers,
    });
    this.writeBatch = new Histogram({
      name: `${PREFIX}write_batch_size`,
      help: 'Messages written per group-commit transaction, by writer',
      labelNames: ['writer'],
      buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
      registers,
    });
    this.badMessageCloses = new Counter({
      name: `${PREFIX}bad_message_closes_total`,
      help: 'Connections closed because the pile sent too many bad messages',
      registers,
    });
    this.handshakesRefused = new Counter({
      name: `${PREFIX}handshakes_refused_total`,
      help: 'WebSocket handshakes refused, by HTTP status (400 bad request, 401 unknown pile or wrong credentials, 404 path outside the OCPP endpoint, 429 too many failures, 503 not decided in time or our failure)',
      labelNames: ['status'],
      registers,
    });
    this.connectionsClosed = new Counter({
      name: `${PREFIX}connections_closed_total`,
      help: 'Pile connections closed, by reason (replaced 4001, revoked 4003, bad_messages 1002, other)',
      labelNames: ['reason'],
      registers,
    });
    this.quarantinedStops = new Counter({
      name: `${PREFIX}quarantined_stops_total`,
      help: 'StopTransaction calls for a transaction we never saw, quarantined for reconciliation',
      registers,
    });
    this.flaggedSamples = new Counter({
      name: `${PREFIX}flagged_meter_samples_total`,
      help: 'Meter samples (MeterValues) stored with a plausibility flag, by flag',
      labelNames: ['flag'],
      registers,
    });
    this.messageLogDropped = new Counter({
      name: `${PREFIX}message_log_dropped_total`,
      help: 'Frames the OCPP message log dropped: buffer_full (database behind), write_failed (every attempt failed)',
      labelNames: ['reason'],
      registers,
    });
    this.messageLogRetries = new Counter({
      name: `${PREFIX}message_log_write_retries_total`,
      help: 'Message log batches written again after a failed attempt',
      registers,
    });
    this.idTagLookups = new Counter({
      name: `${PREFIX}id_tag_lookups_total`,
      help: 'Id-tag look-ups (Authorize, StartTransaction, StopTransaction) by answer: hit (cache), read (database), stale (cache while the database failed or was slow), failed',
      labelNames: ['result'],
      registers,
    });
    this.sessionsClosed = new Counter({
      name: `${PREFIX}sessions_closed_total`,
      help: 'Sessions their pile never stopped, closed by a rule: rebooted, newStart, connectorIdle, maxAge',
      labelNames: ['rule'],
      registers,
    });
    this.repeatedStops = new Counter({
      name: `${PREFIX}repeated_stops_total`,
      help: 'StopTransaction calls repeating the stop of a stopped transaction (not retries), by whether they disagree with it',
      labelNames: ['disagrees'],
      registers,
    });
  }

  inbound(action: string, result: InboundResult): void {
    this.messages.inc({ direction: 'in', action: actionLabel(action), result });
  }

  callHandled(action: string, seconds: number): void {
    this.callDuration.observe({ action: actionLabel(action) }, seconds);
  }

  callErrorSent(code: string): void {
    this.callErrors.inc({ code: code.slice(0, 40) });
  }

  outbound(action: string, result: OutboundResult): void {
    this.messages.inc({ direction: 'out', action: actionLabel(action), result });
  }

  command(action: string, result: CommandResult): void {
    this.commands.inc({ action: actionLabel(action), result });
  }

  batchWritten(writer: string, size: number): void {
    this.writeBatch.observe({ writer }, size);
  }

  closedForBadMessages(): void {
    this.badMessageCloses.inc();
  }

  handshakeRefused(status: number): void {
    const label = String(status);
    this.handshakesRefused.inc({ status: HANDSHAKE_STATUSES.has(label) ? label : 'other' });
  }

  connectionClosed(reason: CloseReason): void {
    this.connectionsClosed.inc({ reason });
  }

  stopQuarantined(): void {
    this.quarantinedStops.inc();
  }

  /** One call per stored flagged sample. */
  sampleFlagged(flag: string): void {
    this.flaggedSamples.inc({ flag: FLAGS.has(flag) ? flag : 'other' });
  }

  messageLogDrop(reason: MessageLogDropReason, frames: number): void {
    this.messageLogDropped.inc({ reason }, frames);
  }

  messageLogRetry(): void {
    this.messageLogRetries.inc();
  }

  idTagLookup(result: IdTagLookupResult): void {
    this.idTagLookups.inc({ result });
  }

  sessionsClosedBy(rule: AbandonRule, count = 1): void {
    this.sessionsClosed.inc({ rule }, count);
  }

  stopRepeated(disagrees: boolean): void {
    this.repeatedStops.inc({ disagrees: String(disagrees) });
  }
}

/** The plausibility flags of meter samples (see writeSampleGroups). */
const FLAGS = new Set(['unparseable', 'unknown-transaction', 'negative', 'decreasing', 'jump']);

function actionLabel(action: string): string {
  return KNOWN_ACTIONS.has(action) ? action : 'unknown';
}
