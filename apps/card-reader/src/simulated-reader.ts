import {
  type CardOnReader,
  type CardReaderErrorCode,
  type CardReaderRequest,
  type CardReaderResponse,
  failureCodeOf,
  IC_CARD_CHIPS,
  type IcCardChip,
} from '@voltdepot/shared-contracts';
import { randomBytes } from 'node:crypto';

/** A fault a simulated card can have, to show the reader's failures. */
export const SIMULATED_FAULTS = ['read', 'keyInit', 'make', 'write'] as const;
export type SimulatedFault = (typeof SIMULATED_FAULTS)[number];

/** A physical card the simulator knows, in the slot or in the drawer. */
export type SimulatedCard = {
  /** The chip's factory serial. */
  uid: string;
  chip: IcCardChip;
  /** Written when the card is made; null on a blank card. */
  cardNo: string | null;
  balanceFen: number;
  /** The key the card was initialised with: it must be the one the agent keeps for its number. */
  key: string | null;
  faults: SimulatedFault[];
};

/**
 * Everything the simulator holds. `keys` plays the reader's secure module: the key of every card number
 * this agent made, against which each card authenticates before it is read or written.
 */
export type SimulatedReaderState = {
  slot: string | null;
  cards: Record<string, SimulatedCard>;
  keys: Record<string, string>;
};

export const emptyReaderState = (): SimulatedReaderState => ({ slot: null, cards: {}, keys: {} });

/** A card as the control API shows it: never its key. */
export type SimulatedCardView = Omit<SimulatedCard, 'key'> & { keyed: boolean; inSlot: boolean };

/** What the control API accepts to put a card in the drawer. */
export type SimulatedCardInput = {
  chip: IcCardChip;
  cardNo?: string | null;
  balanceFen?: number;
  /** A key of its own, for a card made elsewhere (it then fails authentication here). */
  key?: string | null;
  faults?: SimulatedFault[];
};

const UID = /^[0-9A-Fa-f]{8,20}$/;

/** The simulated reader: a slot holding at most one card, and the operations of the protocol. */
export class SimulatedReader {
  constructor(
    private state: SimulatedReaderState = emptyReaderState(),
    private readonly newKey: () => string = () => randomBytes(16).toString('hex'),
  ) {}

  snapshot(): SimulatedReaderState {
    return structuredClone(this.state);
  }

  cards(): { slot: string | null; cards: SimulatedCardView[] } {
    return {
      slot: this.state.slot,
      cards: Object.values(this.state.cards).map(({ key, ...card }) => ({
        ...card,
        keyed: key !== null,
        inSlot: card.uid === this.state.slot,
      })),
    };
  }

  /** Puts a card in the drawer (replacing one with the same UID); a refusal says why. */
  putCard(uid: string, input: unknown): string | undefined {
    if (!UID.test(uid)) return 'the UID is 8 to 20 hexadecimal digits';
    if (typeof input !== 'object' || input === null) return 'the body is a JSON object';
    const { chip, cardNo = null, balanceFen = 0, key = null, faults = [] } = input as SimulatedCardInput;
    if (!(IC_CARD_CHIPS as readonly unknown[]).includes(chip)) return 'chip is CPU or M1';
    if (cardNo !== null && (typeof cardNo !== 'string' || !/^[A-Za-z0-9-]{1,32}$/.test(cardNo))) {
      return 'cardNo is null or 1 to 32 letters, digits or -';
    }
    if (!Number.isSafeInteger(balanceFen) || balanceFen < 0)
      return 'balanceFen is a whole number, not below 0';
    if (key !== null && typeof key !== 'string') return 'key is a string or null';
    if (!Array.isArray(faults) || faults.some((fault) => !SIMULATED_FAULTS.includes(fault))) {
      return `faults are some of ${SIMULATED_FAULTS.join(', ')}`;
    }
    const id = uid.toUpperCase();
    this.state.cards[id] = { uid: id, chip, cardNo, balanceFen, key, faults: [...faults] };
    return undefined;
  }

  /** Inserts a known card in the slot (taking out the one there). */
  insert(uid: string): boolean {
    const id = uid.toUpperCase();
    if (!this.state.cards[id]) return false;
    this.state.slot = id;
    return true;
  }

  remove(): void {
    this.state.slot = null;
  }

  /** Answers one protocol request. */
  handle(request: CardReaderRequest): CardReaderResponse {
    const failure = failureCodeOf(request);
    const fail = (code: CardReaderErrorCode, detail: string): CardReaderResponse => ({
      id: request.id,
      ok: false,
      error: { code, detail },
    });
    const card = this.state.slot === null ? undefined : this.state.cards[this.state.slot];
    if (!card) return fail('abnormalCardReading', 'no card in the reader');
    const wantedChip = request.type === 'write' ? undefined : request.chip;
    if (wantedChip && wantedChip !== card.chip) {
      return fail(failure, `the card in the reader is an ${card.chip} card, not ${wantedChip}`);
    }

    if (request.type === 'make') {
      if (card.cardNo !== null) return fail('abnormalCardReading', 'the card is already used');
      if (this.state.keys[request.cardNo]) {
        return fail(failure, `card number ${request.cardNo} is already on another card`);
      }
      if (card.faults.includes('keyInit')) return fail('cardKeyInitFailed', 'the card refused its new key');
      if (card.faults.includes('make')) return fail(failure, 'writing or printing the card failed');
      const key = this.newKey();
      card.key = key;
      card.cardNo = request.cardNo;
      card.balanceFen = 0;
      this.state.keys[request.cardNo] = key;
      return { id: request.id, ok: true, card: onReader(card, request.cardNo) };
    }

    if (card.faults.includes('read')) return fail(failure, 'the card does not answer');
    if (card.cardNo === null) return fail(failure, 'a blank card: make it first');
    // Authenticate before anything else is trusted: a card made by someone else has another key.
    if (!card.key || this.state.keys[card.cardNo] !== card.key) {
      return fail(failure, 'the card does not authenticate with this reader’s keys');
    }
    const expected = request.type === 'read' ? request.expectCardNo : request.cardNo;
    if (expected !== undefined && expected !== card.cardNo) {
      return fail('idMismatch', `the card in the reader is ${card.cardNo}, not ${expected}`);
    }
    if (request.type === 'write') {
      if (card.faults.includes('write')) return fail(failure, 'writing the balance failed');
      card.balanceFen = request.balanceFen;
    }
    return { id: request.id, ok: true, card: onReader(card, card.cardNo) };
  }
}

function onReader(card: SimulatedCard, cardNo: string): CardOnReader {
  return { chip: card.chip, uid: card.uid, cardNo, balanceFen: card.balanceFen };
}
