import type { ApiBody, IcCardActionResult, IcCardView } from '@voltdepot/console-api-client';
import {
  CardReaderError,
  IC_CARD_MESSAGE_CODES,
  proofOf,
  statusesAllowing,
  type CardReaderErrorCode,
  type IcCardAction,
  type IcCardMessageCode,
} from '@voltdepot/shared-contracts';
import { RequestError } from '../../../request';
import type { CardReader } from './cardReader';

/** The card's part of an action: what a row needs to know. */
export type ActionCard = Pick<IcCardView, 'cardNo' | 'chip' | 'status' | 'balanceFen'>;

/** The action a row button starts: making takes the card's own chip. */
export const ROW_ACTIONS = [
  'make',
  'read',
  'reportLoss',
  'releaseLoss',
  'replace',
  'swap',
  'recharge',
  'refundWithCard',
  'refundWithoutCard',
  'logout',
] as const;
export type RowCardAction = (typeof ROW_ACTIONS)[number];

export function actionOf(button: RowCardAction, card: Pick<ActionCard, 'chip'>): IcCardAction {
  if (button === 'make') return card.chip === 'CPU' ? 'makeCpu' : 'makeM1';
  return button;
}

/** A row button is enabled exactly in the statuses the state machine allows its action in. */
export function actionEnabled(action: IcCardAction, card: Pick<ActionCard, 'status'>): boolean {
  return statusesAllowing(action).includes(card.status);
}

/** Actions whose balance is written to the card once the server has answered. */
const WRITE_PURPOSE: Partial<Record<IcCardAction, 'recharge' | 'refund'>> = {
  recharge: 'recharge',
  refundWithCard: 'refund',
};

/** What the operator types for the action: the holder's certificate, the amount. */
export function inputsOf(action: IcCardAction, card: Pick<ActionCard, 'status'>) {
  return {
    certificate: proofOf(action, card.status) === 'identity',
    amount:
      action === 'recharge'
        ? ('required' as const)
        : action.startsWith('refund')
          ? ('optional' as const)
          : undefined,
  };
}

/**
 * One operation on a card, from the click to the end: its request id (made once, sent again on every
 * retry) and what is already done, so a retry goes on from the step that failed and no step is done twice.
 */
export type CardActionRun = {
  requestId: string;
  action: IcCardAction;
  card: ActionCard;
  certificateNumber?: string;
  /** Yuan as typed (at most two decimals). */
  amount?: string;
  /** Done by the reader: the card made, or the number it read from the card in the slot. */
  made?: boolean;
  presentedCardNo?: string;
  /** The server's answer. */
  result?: IcCardActionResult;
  /** The new balance is on the card. */
  written?: boolean;
};

export type CardActionStep = 'reader' | 'server' | 'write';

export type CardActionFailure =
  | { step: 'reader' | 'write'; code: CardReaderErrorCode; connection: boolean }
  | { step: 'server'; code?: IcCardMessageCode; message?: string };

export type CardActionOutcome =
  { ok: true; run: CardActionRun } | { ok: false; run: CardActionRun; failure: CardActionFailure };

export function newRequestId(): string {
  return globalThis.crypto.randomUUID();
}

export function startRun(
  action: IcCardAction,
  card: ActionCard,
  input: { certificateNumber?: string; amount?: string } = {},
): CardActionRun {
  const amount = input.amount?.trim();
  const certificateNumber = input.certificateNumber?.trim();
  return {
    requestId: newRequestId(),
    action,
    card,
    ...(certificateNumber ? { certificateNumber } : {}),
    ...(amount ? { amount } : {}),
  };
}

export type CardActionDeps = {
  reader: CardReader;
  perform: (
    cardNo: string,
    action: IcCardAction,
    body: ApiBody<'IcCardController_perform'>,
  ) => Promise<IcCardActionResult | undefined>;
  /** Told which step starts (the screen says "reading the card..."). */
  onStep?: (step: CardActionStep) => void;
};

const isMessageCode = (value: unknown): value is IcCardMessageCode =>
  typeof value === 'string' && (IC_CARD_MESSAGE_CODES as readonly string[]).includes(value);

/** The server's refusal as the area's message code when it has one (`details.messageCode`). */
function serverFailure(error: unknown): CardActionFailure {
  if (error instanceof RequestError) {
    const details = error.body?.details as { messageCode?: unknown } | undefined;
    const code = details && isMessageCode(details.messageCode) ? details.messageCode : undefined;
    return { step: 'server', code, message: error.message };
  }
  return { step: 'server' };
}

function readerFailure(
  step: 'reader' | 'write',
  error: unknown,
  fallback: CardReaderErrorCode,
): CardActionFailure {
  if (error instanceof CardReaderError)
    return { step, code: error.code, connection: error.failure !== 'reader' };
  return { step, code: fallback, connection: true };
}

/**
 * Runs what is left of an operation: the reader first (make the card, or read the card in the slot),
 * then the server with the run's request id, then the new balance written to the card. Resolves with the
 * run as far as it got and, when a step failed, which and why; calling it again with that run retries.
 */
export async function advanceRun(run: CardActionRun, deps: CardActionDeps): Promise<CardActionOutcome> {
  let current = { ...run };
  const { card, action } = current;
  const proof = proofOf(action, card.status);

  if (!current.result) {
    if ((action === 'makeCpu' || action === 'makeM1') && !current.made) {
      deps.onStep?.('reader');
      try {
        await deps.reader.make(card.chip, card.cardNo);
      } catch (error) {
        return {
          ok: false,
          run: current,
          failure: readerFailure(
            'reader',
            error,
            card.chip === 'CPU' ? 'makeCpuCardFailed' : 'makeM1CardFailed',
          ),
        };
      }
      current = { ...current, made: true };
    } else if ((action === 'read' || proof === 'card') && !current.presentedCardNo) {
      deps.onStep?.('reader');
      try {
        const read = await deps.reader.read({ chip: card.chip, expectCardNo: card.cardNo });
        current = { ...current, presentedCardNo: read.cardNo };
      } catch (error) {
        return {
          ok: false,
          run: current,
          failure: readerFailure('reader', error, card.chip === 'CPU' ? 'readCpuCardFailed' : 'readFailed'),
        };
      }
    }

    deps.onStep?.('server');
    let result: IcCardActionResult | undefined;
    try {
      result = await deps.perform(card.cardNo, action, {
        requestId: current.requestId,
        ...(current.presentedCardNo ? { presentedCardNo: current.presentedCardNo } : {}),
        ...(proof === 'identity' ? { certificateNumber: current.certificateNumber ?? '' } : {}),
        ...(current.amount ? { amount: current.amount } : {}),
      });
    } catch (error) {
      return { ok: false, run: current, failure: serverFailure(error) };
    }
    // No answer at all (network, time-out): the request layer said so; a retry sends the same id.
    if (!result) return { ok: false, run: current, failure: { step: 'server' } };
    current = { ...current, result };
  }

  const purpose = WRITE_PURPOSE[action];
  if (purpose && !current.written) {
    deps.onStep?.('write');
    try {
      await deps.reader.write(purpose, card.cardNo, current.result!.card.balanceFen);
    } catch (error) {
      return {
        ok: false,
        run: current,
        failure: readerFailure('write', error, purpose === 'refund' ? 'refundFailed' : 'rechargeFailed'),
      };
    }
    current = { ...current, written: true };
  }
  return { ok: true, run: current };
}
