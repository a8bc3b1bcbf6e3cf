import { billedAmounts, NOTHING_BILLED } from '../pricing/order-amounts';
import { billableReadings, meterAnomalies, type SessionBounds } from '../pricing/session-readings';
import type { OrderPricingInputs, OrderState, VersionedOrder } from './order-version.repository';

/** The next state of an order, or why there can be none (sentences for the 422 answer). */
export type Revision = { state: OrderState } | { problems: string[] };

/** The session's bounds at a meter stop, or why the session cannot be billed at all. */
function boundsOf(
  order: VersionedOrder,
  inputs: OrderPricingInputs,
  meterStopWh: number,
): { bounds: SessionBounds; problems: string[] } | { bounds?: undefined; problems: string[] } {
  const problems: string[] = [];
  if (!inputs.session)
    problems.push('the session has no recorded start, so its energy cannot be split over the price bands');
  if (!inputs.tariff) problems.push('no price plan is in force for the session');
  if (!inputs.session) return { problems };
  const bounds = { session: inputs.session, stoppedAt: new Date(order.state.stoppedAt), meterStopWh };
  if (bounds.stoppedAt < inputs.session.startedAt) problems.push('the stop time is before the start time');
  return { bounds, problems };
}

/**
 * A held order approved: billed the way settlement would have billed it (its readings, the tariff kept
 * on it), pay status unpaid. Refused when the session cannot be billed as it stands: no start, no plan,
 * stop before start, a negative register or one running backwards beyond the rounding tolerance
 * (amend the order's meter stop first).
 */
export function approvedState(order: VersionedOrder, inputs: OrderPricingInputs, timeZone: string): Revision {
  const { bounds, problems } = boundsOf(order, inputs, order.state.meterStopWh);
  if (bounds) {
    const anomalies = meterAnomalies(bounds, inputs.readings);
    if (anomalies.includes('meterNegative')) problems.push('a meter value is negative');
    if (anomalies.includes('meterDecreased'))
      problems.push('the meter register decreases during the session');
  }
  if (problems.length || !bounds) return { problems };
  return {
    state: {
      ...order.state,
      payStatus: 0,
      pricePlanId: inputs.tariff!.planId,
      amounts: billedAmounts(inputs.tariff!, billableReadings(bounds, inputs.readings), timeZone),
    },
  };
}

/**
 * The order with another meter stop (an operator's correction: the later stop's meter, a meter read on
 * site). Its energy follows; a billed order is billed again with the tariff kept on it (its readings held
 * below the corrected stop), a held or rejected one still bills nothing. Refused below the meter start.
 */
export function amendedState(
  order: VersionedOrder,
  inputs: OrderPricingInputs,
  meterStopWh: number,
  timeZone: string,
): Revision {
  const meterStartWh = inputs.session?.meterStartWh ?? order.meterStartWh;
  if (meterStartWh === null) return { problems: ['the order has no meter start to measure its energy from'] };
  if (meterStopWh < meterStartWh)
    return { problems: [`the meter stop must not be below the meter start (${meterStartWh} Wh)`] };
  const energyWh = meterStopWh - meterStartWh;
  if (order.state.payStatus === 3)
    return { state: { ...order.state, meterStopWh, energyWh, amounts: NOTHING_BILLED } };
  const { bounds, problems } = boundsOf(order, inputs, meterStopWh);
  if (problems.length || !bounds) return { problems };
  return {
    state: {
      ...order.state,
      meterStopWh,
      energyWh,
      pricePlanId: inputs.tariff!.planId,
      amounts: billedAmounts(inputs.tariff!, billableReadings(bounds, inputs.readings), timeZone),
    },
  };
}
