/**
 * Charging-card actions (business-areas §4): make, report loss, release loss, replace, swap and log out.
 * "A card not in normal status cannot be operated": every action but make, release loss and replace
 * needs a normal card; those three start from not made, reported lost and reported lost.
 */
export const CARD_ACTIONS = ['make', 'reportLoss', 'releaseLoss', 'replace', 'swap', 'logout'] as const;
export type CardAction = (typeof CARD_ACTIONS)[number];

export type CardStatus = 'notMade' | 'normal' | 'occupied' | 'lost' | 'cancelled' | 'invalid';

/** The message of §4 for a card that is not normal. */
export const CARD_NOT_NORMAL_MESSAGE = 'A card not in normal status cannot be operated';

type Transition = { from: CardStatus; to: CardStatus; message: string; newPhysicalNumber: boolean };

export const CARD_TRANSITIONS: Record<CardAction, Transition> = {
  make: {
    from: 'notMade',
    to: 'normal',
    message: 'Only a card that has not been made can be made',
    newPhysicalNumber: false,
  },
  reportLoss: { from: 'normal', to: 'lost', message: CARD_NOT_NORMAL_MESSAGE, newPhysicalNumber: false },
  releaseLoss: {
    from: 'lost',
    to: 'normal',
    message: 'Only a card reported lost can have its loss released',
    newPhysicalNumber: false,
  },
  // A lost card is replaced by a new one (new physical number) under the same self number and holder.
  replace: {
    from: 'lost',
    to: 'normal',
    message: 'Only a card reported lost can be replaced',
    newPhysicalNumber: true,
  },
  // A working (e.g. damaged) card is swapped for a new one.
  swap: { from: 'normal', to: 'normal', message: CARD_NOT_NORMAL_MESSAGE, newPhysicalNumber: true },
  logout: { from: 'normal', to: 'cancelled', message: CARD_NOT_NORMAL_MESSAGE, newPhysicalNumber: false },
};

/** The status after `action`, or the message why the card cannot take it. */
export function cardTransition(
  status: string,
  action: CardAction,
): { ok: true; to: CardStatus } | { ok: false; message: string } {
  const t = CARD_TRANSITIONS[action];
  return status === t.from ? { ok: true, to: t.to } : { ok: false, message: t.message };
}
