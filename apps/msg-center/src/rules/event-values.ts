import { EventEnvelope, PileError, PileErrorCleared, TransactionStopped } from '@voltdepot/shared-events';
import { formatBusinessTime } from '../shared/business-time';
import { stopReasonText } from '../stop-notices/stop-notice.format';

/** What a rule sees of an event: the throttle target and the template variables (${pile}, ${reason}, ...). */
export type RuleEvent = {
  eventType: string;
  target: string;
  values: Record<string, string | number | boolean>;
};

export function ruleEventOf(envelope: EventEnvelope, timeZone: string): RuleEvent | undefined {
  if (TransactionStopped.is(envelope)) {
    const p = envelope.payload;
    return {
      eventType: envelope.type,
      target: `${p.chargePointId}/${p.connectorId}`,
      values: {
        ...connectorValues(p),
        transactionId: p.transactionId,
        stopKind: p.stopKind,
        reasonCode: p.reason,
        reason: stopReasonText(p.reason),
        energyKwh: p.energyWh === undefined ? '' : (p.energyWh / 1000).toFixed(2),
        time: formatBusinessTime(p.timestamp, timeZone),
      },
    };
  }
  if (PileError.is(envelope)) {
    const p = envelope.payload;
    return {
      eventType: envelope.type,
      target: `${p.chargePointId}/${p.connectorId}`,
      values: {
        ...connectorValues(p),
        errorCode: p.errorCode,
        status: p.status,
        info: p.info ?? '',
        vendorErrorCode: p.vendorErrorCode ?? '',
        time: formatBusinessTime(p.timestamp, timeZone),
      },
    };
  }
  if (PileErrorCleared.is(envelope)) {
    const p = envelope.payload;
    return {
      eventType: envelope.type,
      target: `${p.chargePointId}/${p.connectorId}`,
      values: {
        ...connectorValues(p),
        errorCode: p.errorCode,
        vendorErrorCode: p.vendorErrorCode ?? '',
        status: p.status,
        currentErrorCode: p.currentErrorCode,
        since: formatBusinessTime(p.since, timeZone),
        time: formatBusinessTime(p.clearedAt, timeZone),
      },
    };
  }
  return undefined;
}

/** The pile and gun every event names, under both the template names (pile, gun) and the payload's. */
function connectorValues(p: { chargePointId: string; connectorId: number }): RuleEvent['values'] {
  return {
    pile: p.chargePointId,
    chargePointId: p.chargePointId,
    gun: p.connectorId,
    connectorId: p.connectorId,
  };
}

/** Every condition key must equal the event value (compared as text). */
export function conditionMatches(condition: Record<string, unknown>, values: RuleEvent['values']): boolean {
  return Object.entries(condition).every(([key, expected]) => String(values[key]) === String(expected));
}
