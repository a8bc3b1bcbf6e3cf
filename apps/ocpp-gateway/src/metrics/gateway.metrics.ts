import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { CentralSystemActions, ChargePointActions } from '@voltdepot/shared-ocpp';

const PREFIX = 'voltdepot_ocpp_';
const KNOWN_ACTIONS = new Set<string>([...ChargePointActions, ...CentralSystemActions]);

/** What a pile's call came to: answered with a CALLRESULT or a CALLERROR, or not a call we could read. */
export type InboundResult = 'result' | 'call_error' | 'malformed';
/** What a call we sent to a pile came to. */
export type OutboundResult = 'result' | 'call_error' | 'timeout' | 'disconnected';
export type CommandResult = 'completed' | 'failed' | 'timeout' | 'offline' | 'invalid' | 'not_accepted';

export type GatewayMetricSources = {
  connectedPiles: () => number;
  /** Unpublished outbox rows; read at scrape time. */
  outboxBacklog: () => Promise<number>;
  /** Items waiting in the group-commit writers. */
  writeBacklog: () => number;
  messageLogDropped: () => number;
};

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

  constructor(
    readonly registry: Registry,
    sources: GatewayMetricSources,
    private readonly onCollectError: (error: unknown) => void = () => undefined,
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
    const onError = this.onCollectError;
    new Gauge({
      name: `${PREFIX}outbox_backlog`,
      help: 'Events written to the outbox and not yet published on the bus',
      registers,
      async collect() {
        try {
          this.set(await sources.outboxBacklog());
        } catch (error) {
          onError(error); // keep the last value; a scrape must not fail because the database is slow
        }
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
    new Gauge({
      name: `${PREFIX}message_log_dropped`,
      help: 'Frames the OCPP message log dropped since start (database behind)',
      registers,
      collect() {
        this.set(sources.messageLogDropped());
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
}

function actionLabel(action: string): string {
  return KNOWN_ACTIONS.has(action) ? action : 'unknown';
}
