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
    return connectorEvent(envelope.type, p, {
      transactionId: p.transactionId,
      stopKind: p.stopKind,
      reasonCode: p.reason,
      reason: stopReasonText(p.reason),
      energyKwh: p.energyWh === undefined ? '' : (p.energyWh / 1000).toFixed(2),
      time: formatBusinessTime(p.timestamp, timeZone),
    });
  }
  if (PileError.is(envelope)) {
    const p = envelope.payload;
    return connectorEvent(envelope.type, p, {
      errorCode: p.errorCode,
      status: p.status,
      info: p.info ?? '',
      vendorErrorCode: p.vendorErrorCode ?? '',
      time: formatBusinessTime(p.timestamp, timeZone),
    });
  }
  if (PileErrorCleared.is(envelope)) {
    const p = envelope.payload;
    return connectorEvent(envelope.type, p, {
      errorCode: p.errorCode,
      vendorErrorCode: p.vendorErrorCode ?? '',
      status: p.status,
      currentErrorCode: p.currentErrorCode,
      since: formatBusinessTime(p.since, timeZone),
      time: formatBusinessTime(p.clearedAt, timeZone),
    });
  }
  return undefined;
}

/**
 * A rule event about one gun: throttled per pile/gun, its values led by the pile and gun under both the
 * template names (pile, gun) and the payload's.
 */
function connectorEvent(
  eventType: string,
  p: { chargePointId: string; connectorId: number },
  values: RuleEvent['values'],
): RuleEvent {
  return {
    eventType,
    target: `${p.chargePointId}/${p.connectorId}`,
    values: {
      pile: p.chargePointId,
      chargePointId: p.chargePointId,
      gun: p.connectorId,
      connectorId: p.connectorId,
      ...values,
    },
  };
}

/** Every condition key must equal the event value (compared as text). */
export function conditionMatches(condition: Record<string, unknown>, values: RuleEvent['values']): boolean {
  return Object.entries(condition).every(([key, expected]) => String(values[key]) === String(expected));
}
