import { randomUUID } from 'node:crypto';
import {
  ConnectorStatusChanged,
  MeterValuesReceived,
  PileConnected,
  TransactionAbandoned,
  TransactionStarted,
  TransactionStopped,
  TransactionStopRepeated,
  type EventDefinition,
  type EventEnvelope,
  type MeterSampleV1,
  type TransactionAbandonedV1,
  type TransactionStartedV1,
  type TransactionStoppedV1,
  type TransactionStopRepeatedV1,
} from '@voltdepot/shared-events';

type Started = Pick<TransactionStartedV1, 'transactionId' | 'idTag' | 'meterStartWh'> &
  Partial<TransactionStartedV1>;
type Stopped = Pick<TransactionStoppedV1, 'transactionId' | 'meterStopWh'> & Partial<TransactionStoppedV1>;
/**
 * One meter sample of a transaction: the register (Wh, decimals as piles send them), and the power and
 * SoC when given; `flag` as the gateway's plausibility check set it on the register, `context` as sent
 * (`Transaction.End` for a stop's transactionData).
 */
type Sample = {
  connectorId?: number;
  transactionId: number;
  energyWh: number;
  powerW?: number;
  soc?: number;
  flag?: string;
  context?: string;
};
type Abandoned = Pick<TransactionAbandonedV1, 'transactionId' | 'idTag' | 'meterStartWh'> &
  Partial<TransactionAbandonedV1>;
type StopRepeated = Pick<TransactionStopRepeatedV1, 'transactionId' | 'meterStopWh' | 'firstMeterStopWh'> &
  Partial<TransactionStopRepeatedV1>;

/**
 * The events the gateway puts on the bus for one charge point, built as it builds them: `seconds` count
 * from `t0` (a minute ago by default, so consumers take them as live), connector 1 unless given.
 */
export class PileEvents {
  constructor(
    readonly chargePointId: string,
    private readonly t0 = Date.now() - 60_000,
  ) {}

  /** The instant `seconds` after t0, ISO-8601. */
  at(seconds: number): string {
    return new Date(this.t0 + seconds * 1000).toISOString();
  }

  connected(seconds = 0): EventEnvelope {
    return this.envelope(PileConnected, { chargePointId: this.chargePointId, replicaId: 'gw' }, seconds);
  }

  status(connectorId: number, status: string, seconds: number): EventEnvelope {
    const payload = { chargePointId: this.chargePointId, connectorId, status, errorCode: 'NoError' };
    return this.envelope(ConnectorStatusChanged, { ...payload, timestamp: this.at(seconds) }, seconds);
  }

  started(seconds: number, o: Started): EventEnvelope {
    return this.envelope(
      TransactionStarted,
      {
        chargePointId: this.chargePointId,
        connectorId: 1,
        timestamp: this.at(seconds),
        idTagStatus: 'Accepted',
        ...o,
      },
      seconds,
    );
  }

  meterValues(seconds: number, o: Sample): EventEnvelope {
    const timestamp = this.at(seconds);
    const samples: MeterSampleV1[] = [
      {
        timestamp,
        measurand: 'Energy.Active.Import.Register',
        value: o.energyWh,
        unit: 'Wh',
        ...(o.context ? { context: o.context } : {}),
        ...(o.flag ? { flag: o.flag } : {}),
      },
    ];
    if (o.powerW !== undefined)
      samples.push({ timestamp, measurand: 'Power.Active.Import', value: o.powerW, unit: 'W' });
    if (o.soc !== undefined) samples.push({ timestamp, measurand: 'SoC', value: o.soc, unit: 'Percent' });
    const { chargePointId } = this;
    const { connectorId = 1, transactionId } = o;
    return this.envelope(
      MeterValuesReceived,
      { chargePointId, connectorId, transactionId, flagged: o.flag !== undefined, samples },
      seconds,
    );
  }

  /**
   * A session the gateway closed by rule at `seconds` (its pile never stopped it): started at
   * `startedAt` (seconds, default 0), last sampled as given (`lastMeterWh`, `lastSampleAt`).
   */
  abandoned(seconds: number, o: Abandoned & { startedAtSeconds?: number }): EventEnvelope {
    const { startedAtSeconds = 0, ...payload } = o;
    return this.envelope(
      TransactionAbandoned,
      {
        chargePointId: this.chargePointId,
        connectorId: 1,
        startedAt: this.at(startedAtSeconds),
        closedAt: this.at(seconds),
        rule: 'rebooted',
        ...payload,
      },
      seconds,
    );
  }

  /** A second StopTransaction at `seconds` for a transaction stopped at `firstSeconds` (default: a minute before). */
  stopRepeated(seconds: number, o: StopRepeated & { firstSeconds?: number }): EventEnvelope {
    const { firstSeconds = seconds - 60, ...payload } = o;
    return this.envelope(
      TransactionStopRepeated,
      {
        chargePointId: this.chargePointId,
        connectorId: 1,
        timestamp: this.at(seconds),
        reason: 'Local',
        firstTimestamp: this.at(firstSeconds),
        firstReason: 'EVDisconnected',
        disagrees: payload.meterStopWh !== payload.firstMeterStopWh,
        ...payload,
      },
      seconds,
    );
  }

  stopped(seconds: number, o: Stopped): EventEnvelope {
    return this.envelope(
      TransactionStopped,
      {
        chargePointId: this.chargePointId,
        connectorId: 1,
        timestamp: this.at(seconds),
        reason: 'EVDisconnected',
        stopKind: 'normal',
        quarantined: false,
        ...(o.meterStartWh !== undefined ? { energyWh: o.meterStopWh - o.meterStartWh } : {}),
        ...o,
      },
      seconds,
    );
  }

  /**
   * A gun starting to charge: Preparing at `seconds`, the transaction a second later, Charging after
   * another, and a meter sample 8 s after the start (register `meterStartWh + energyWh`).
   */
  charging(
    seconds: number,
    o: Started & { connectorId: number; energyWh: number; powerW: number; soc: number },
  ): EventEnvelope[] {
    const { connectorId, transactionId, idTag, meterStartWh, energyWh, powerW, soc } = o;
    return [
      this.status(connectorId, 'Preparing', seconds),
      this.started(seconds + 1, { connectorId, transactionId, idTag, meterStartWh }),
      this.status(connectorId, 'Charging', seconds + 2),
      this.meterValues(seconds + 9, {
        connectorId,
        transactionId,
        energyWh: meterStartWh + energyWh,
        powerW,
        soc,
      }),
    ];
  }

  // Written out rather than through the messaging library's createEnvelope: messaging's own tests use
  // this library, which therefore cannot depend on it.
  private envelope<T extends string, P>(
    definition: EventDefinition<T, P>,
    payload: P,
    seconds: number,
  ): EventEnvelope {
    const { topic, type, version } = definition;
    return {
      eventId: randomUUID(),
      topic,
      key: this.chargePointId,
      type,
      version,
      occurredAt: this.at(seconds),
      correlationId: `${this.chargePointId}:s1`,
      payload,
    };
  }
}
