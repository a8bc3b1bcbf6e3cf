import type { IcCardChangedV1 } from '@voltdepot/shared-events';

/** What the assets area keeps of an IC card's announcement (`iccard.card.changed`). */
export type IcCardState = Pick<
  IcCardChangedV1,
  'cardNo' | 'cardType' | 'status' | 'customerName' | 'organizationId' | 'sequence'
>;

/**
 * Last writer wins by sequence: of several states of one card, the one with the highest sequence; a
 * state is applied over a stored one only when its sequence is higher (`supersedes`). So events that
 * arrive reordered, redelivered or replayed from the start of the topic never bring back an older state.
 */
export function latestPerCard<S extends Pick<IcCardState, 'cardNo' | 'sequence'>>(states: readonly S[]): S[] {
  const latest = new Map<string, S>();
  for (const state of states) {
    const kept = latest.get(state.cardNo);
    if (!kept || supersedes(state, kept.sequence)) latest.set(state.cardNo, state);
  }
  return [...latest.values()];
}

/**
 * Whether `candidate` replaces what the basic-data card holds: a card kept by hand on the grid (no IC
 * sequence yet) takes any IC state; one that came from an IC card only a newer state (the repository's
 * UPDATE has the same condition).
 */
export function supersedes(candidate: Pick<IcCardState, 'sequence'>, stored: number | null | undefined) {
  return stored === null || stored === undefined || candidate.sequence > stored;
}

/** The physical number (the pile's idTag) the basic-data grid can hold: 1 to 16 characters. */
export const CHARGING_CARD_NUMBER_MAX = 16;
/** `charging_card.cardholder` is at most this long. */
const CARDHOLDER_MAX = 32;

/**
 * The basic-data charging card of an IC card: the same number as physical and self number, the type,
 * and the status code unchanged (both areas use §4's codes), so `idTagStatusOf` answers the pile:
 * normal and occupied Accepted; lost and cancelled Blocked; notMade and invalid Invalid.
 */
export function chargingCardOf(state: IcCardState): {
  physicalNumber: string;
  selfNumber: string;
  type: number;
  status: IcCardState['status'];
  cardholder: string;
  organizationId: number;
  icCardSequence: number;
} {
  return {
    physicalNumber: state.cardNo,
    selfNumber: state.cardNo,
    type: state.cardType,
    status: state.status,
    cardholder: (state.customerName ?? state.cardNo).slice(0, CARDHOLDER_MAX),
    organizationId: state.organizationId,
    icCardSequence: state.sequence,
  };
}

/** Why an IC card cannot have a basic-data card (undefined when it can). */
export function unsyncableReason(state: Pick<IcCardState, 'cardNo'>): string | undefined {
  return state.cardNo.length > CHARGING_CARD_NUMBER_MAX
    ? `its number is longer than the ${CHARGING_CARD_NUMBER_MAX} characters a charging card's physical number holds`
    : undefined;
}
