import { CARD_STATUSES, type CardStatus, LABEL_LANGUAGES } from './code-labels';
import {
  cardSessionTransition,
  cardTransition,
  IC_CARD_ACTION_LABELS,
  IC_CARD_ACTIONS,
  IC_CARD_CHIP_LABELS,
  IC_CARD_MESSAGE_CODES,
  IC_CARD_MESSAGE_LABELS,
  IC_ACCOUNT_KIND_LABELS,
  IC_ACCOUNT_KINDS,
  LEDGER_KIND_LABELS,
  LEDGER_KINDS,
  type IcCardAction,
  type IcCardContext,
  parseRechargeAmount,
  proofOf,
  sameIdNumber,
  statusesAllowing,
} from './ic-card';

/** A context that satisfies every check but the status, for the action given. */
function validContext(action: IcCardAction, status: CardStatus): IcCardContext {
  return {
    chip: action === 'makeM1' ? 'M1' : 'CPU',
    cardNo: 'C0001',
    // A log-out needs the balance refunded; a refund needs one.
    balanceFen: action === 'logout' ? 0 : 5_000,
    presentedCardNo: proofOf(action, status) === 'card' ? 'C0001' : undefined,
    registeredIdNumber: '34010119900101123X',
    presentedIdNumber: proofOf(action, status) === 'identity' ? '34010119900101123x' : undefined,
    rechargeFen: action === 'recharge' ? 10_000 : undefined,
  };
}

const N = 'normal';
type Expected = CardStatus | `!${string}`;

// Every action in every status: the next status, or `!` and the refusal's message code.
// Columns: notMade, normal, occupied, lost, cancelled, invalid.
const TABLE: Record<IcCardAction, [Expected, Expected, Expected, Expected, Expected, Expected]> = {
  makeCpu: [N, '!cardAlreadyMade', '!cardOccupied', '!cardAlreadyMade', '!cardAbnormal', '!cardAbnormal'],
  makeM1: [N, '!cardAlreadyMade', '!cardOccupied', '!cardAlreadyMade', '!cardAbnormal', '!cardAbnormal'],
  read: ['!cardNotMade', N, 'occupied', 'lost', 'cancelled', 'invalid'],
  reportLoss: ['!cardNotMade', 'lost', 'lost', '!cardAbnormal', '!cardAbnormal', '!cardAbnormal'],
  releaseLoss: ['!cardNotMade', '!cardNotLost', '!cardOccupied', N, '!cardAbnormal', '!cardAbnormal'],
  replace: ['!cardNotMade', '!cardNotLost', '!cardOccupied', 'invalid', '!cardAbnormal', '!cardAbnormal'],
  swap: ['!cardNotMade', 'invalid', '!cardOccupied', '!cardAbnormal', '!cardAbnormal', '!cardAbnormal'],
  recharge: ['!cardNotMade', N, '!cardOccupied', '!cardAbnormal', '!cardAbnormal', '!cardAbnormal'],
  refundWithCard: ['!cardNotMade', N, '!cardOccupied', '!cardAbnormal', '!cardAbnormal', '!cardAbnormal'],
  refundWithoutCard: [
    '!cardNotMade',
    '!cardNotLost',
    '!cardOccupied',
    'lost',
    '!cardAbnormal',
    '!cardAbnormal',
  ],
  logout: ['!cardNotMade', 'cancelled', '!cardOccupied', 'cancelled', '!cardAbnormal', '!cardAbnormal'],
};

// The notes that come with an allowed action, where there are any.
const NOTES: Partial<Record<`${IcCardAction} ${CardStatus}`, string[]>> = {
  'read lost': ['cardAbnormal'],
  'read cancelled': ['cardAbnormal'],
  'read invalid': ['cardAbnormal'],
  'reportLoss occupied': ['chargingContinues'],
  'replace lost': ['issueNewCard'],
  'swap normal': ['issueNewCard'],
  'refundWithCard normal': ['askLogout'],
  'refundWithoutCard lost': ['askLogout'],
};

const cases = IC_CARD_ACTIONS.flatMap((action) =>
  CARD_STATUSES.map((status, column) => [action, status, TABLE[action][column]] as const),
);

describe('cardTransition: every action in every status', () => {
  it('the table covers every action and status', () => {
    expect(cases).toHaveLength(IC_CARD_ACTIONS.length * CARD_STATUSES.length);
    expect(Object.keys(TABLE).sort()).toEqual([...IC_CARD_ACTIONS].sort());
  });

  it.each(cases)('%s on a %s card: %s', (action, status, expected) => {
    const result = cardTransition(status, action, validContext(action, status));
    if (expected.startsWith('!')) {
      expect(result).toEqual({ ok: false, code: expected.slice(1) });
    } else {
      expect(result).toEqual({ ok: true, status: expected, notes: NOTES[`${action} ${status}`] ?? [] });
    }
  });

  it('statusesAllowing lists exactly the allowed column of the table', () => {
    for (const action of IC_CARD_ACTIONS) {
      const allowed = CARD_STATUSES.filter((_, column) => !TABLE[action][column].startsWith('!'));
      expect(statusesAllowing(action).sort()).toEqual([...allowed].sort());
    }
  });
});

describe('cardTransition: the checks after the status', () => {
  const base: IcCardContext = { chip: 'CPU', cardNo: 'C0001', balanceFen: 5_000 };

  it.each<[string, IcCardAction, CardStatus, Partial<IcCardContext>, string]>([
    ['an M1 record made as CPU', 'makeCpu', 'notMade', { chip: 'M1' }, 'wrongChip'],
    ['a CPU record made as M1', 'makeM1', 'notMade', { chip: 'CPU' }, 'wrongChip'],
    // With the card: it must be in the reader, and be this card.
    ['a recharge with no card in the reader', 'recharge', N, { rechargeFen: 100 }, 'abnormalCardReading'],
    [
      'a recharge on another card',
      'recharge',
      N,
      { rechargeFen: 100, presentedCardNo: 'C0002' },
      'idMismatch',
    ],
    ['a refund with another card', 'refundWithCard', N, { presentedCardNo: 'C0002' }, 'idMismatch'],
    ['a swap with no card', 'swap', N, {}, 'abnormalCardReading'],
    ['a log-out of a normal card with no card', 'logout', N, { balanceFen: 0 }, 'abnormalCardReading'],
    // Without the card: the holder's certificate number must be the registered one.
    ['a loss report without a certificate', 'reportLoss', N, {}, 'certificateNumberRequired'],
    [
      'a loss report with another certificate',
      'reportLoss',
      N,
      { presentedIdNumber: '340101199001011234', registeredIdNumber: '34010119900101123X' },
      'idNumberMismatch',
    ],
    [
      'a release with no registered certificate',
      'releaseLoss',
      'lost',
      { presentedIdNumber: '340101199001011234' },
      'idNumberMismatch',
    ],
    [
      'a replacement with a blank certificate',
      'replace',
      'lost',
      { presentedIdNumber: '  ' },
      'certificateNumberRequired',
    ],
    // Money.
    ['a recharge without an amount', 'recharge', N, { presentedCardNo: 'C0001' }, 'rechargeAmountRequired'],
    ['a recharge of 0', 'recharge', N, { presentedCardNo: 'C0001', rechargeFen: 0 }, 'rechargeAmountInvalid'],
    [
      'a recharge of half a fen',
      'recharge',
      N,
      { presentedCardNo: 'C0001', rechargeFen: 0.5 },
      'rechargeAmountInvalid',
    ],
    [
      'a refund of an empty card',
      'refundWithCard',
      N,
      { presentedCardNo: 'C0001', balanceFen: 0 },
      'refundBalanceNotPositive',
    ],
    [
      'a refund of a card in arrears',
      'refundWithCard',
      N,
      { presentedCardNo: 'C0001', balanceFen: -300 },
      'refundBalanceNotPositive',
    ],
    [
      'a refund above the balance',
      'refundWithCard',
      N,
      { presentedCardNo: 'C0001', refundFen: 5_001 },
      'insufficientBalance',
    ],
    [
      'a refund without card of an empty card',
      'refundWithoutCard',
      'lost',
      { presentedIdNumber: 'A1', registeredIdNumber: 'a1', balanceFen: 0 },
      'refundBalanceNotPositive',
    ],
    ['a log-out with a balance left', 'logout', N, { presentedCardNo: 'C0001' }, 'refundBeforeLogout'],
    [
      'a log-out of a lost card with a balance left',
      'logout',
      'lost',
      { presentedIdNumber: 'A1', registeredIdNumber: 'A1' },
      'refundBeforeLogout',
    ],
  ])('%s is refused', (_name, action, status, overrides, code) => {
    expect(cardTransition(status, action, { ...base, ...overrides })).toEqual({ ok: false, code });
  });

  it('the status is checked before the proof: a lost card in the reader still cannot be recharged', () => {
    expect(
      cardTransition('lost', 'recharge', { ...base, presentedCardNo: 'C0002', rechargeFen: 100 }),
    ).toEqual({ ok: false, code: 'cardAbnormal' });
  });

  it('a partial refund within the balance is allowed and asks about logging out', () => {
    expect(
      cardTransition('normal', 'refundWithCard', { ...base, presentedCardNo: 'C0001', refundFen: 4_999 }),
    ).toEqual({ ok: true, status: 'normal', notes: ['askLogout'] });
  });

  it('a lost card is logged out on the holder’s certificate, without the card', () => {
    expect(
      cardTransition('lost', 'logout', {
        ...base,
        balanceFen: 0,
        presentedIdNumber: 'A1',
        registeredIdNumber: 'A1',
      }),
    ).toEqual({ ok: true, status: 'cancelled', notes: [] });
  });
});

describe('cardSessionTransition', () => {
  it.each<[CardStatus, 'sessionStarted' | 'sessionEnded', string]>([
    ['normal', 'sessionStarted', 'occupied'],
    ['occupied', 'sessionStarted', '!cardOccupied'],
    ['lost', 'sessionStarted', '!cardAbnormal'],
    ['notMade', 'sessionStarted', '!cardAbnormal'],
    ['cancelled', 'sessionStarted', '!cardAbnormal'],
    ['invalid', 'sessionStarted', '!cardAbnormal'],
    ['occupied', 'sessionEnded', 'normal'],
    // Reported lost during the session: the end does not make it usable again.
    ['lost', 'sessionEnded', 'lost'],
    ['normal', 'sessionEnded', 'normal'],
  ])('%s + %s: %s', (status, event, expected) => {
    const result = cardSessionTransition(status, event);
    expect(result).toEqual(
      expected.startsWith('!')
        ? { ok: false, code: expected.slice(1) }
        : { ok: true, status: expected, notes: [] },
    );
  });
});

describe('parseRechargeAmount', () => {
  it.each([
    ['100', 10_000],
    ['0.01', 1],
    ['12.5', 1_250],
    [' 12.34 ', 1_234],
    ['99999999.99', 9_999_999_999],
  ])('%s yuan is %i fen', (text, fen) => {
    expect(parseRechargeAmount(text)).toEqual({ ok: true, fen });
  });

  it.each([
    ['', 'rechargeAmountRequired'],
    [undefined, 'rechargeAmountRequired'],
    ['   ', 'rechargeAmountRequired'],
    ['0', 'rechargeAmountInvalid'],
    ['0.00', 'rechargeAmountInvalid'],
    ['1.234', 'rechargeAmountInvalid'],
    ['-5', 'rechargeAmountInvalid'],
    ['1e3', 'rechargeAmountInvalid'],
    ['abc', 'rechargeAmountInvalid'],
    ['1.', 'rechargeAmountInvalid'],
    ['123456789', 'rechargeAmountInvalid'],
  ])('%p is refused with %s', (text, code) => {
    expect(parseRechargeAmount(text)).toEqual({ ok: false, code });
  });
});

describe('sameIdNumber', () => {
  it('ignores case and spaces, never matches a blank', () => {
    expect(sameIdNumber('34010119900101123x', '34010119900101123X')).toBe(true);
    expect(sameIdNumber(' 3401 0119 ', '34010119')).toBe(true);
    expect(sameIdNumber('340101', '340102')).toBe(false);
    expect(sameIdNumber('', '')).toBe(false);
  });
});

describe('IC card labels', () => {
  it.each([
    ['messages', IC_CARD_MESSAGE_LABELS, IC_CARD_MESSAGE_CODES],
    ['actions', IC_CARD_ACTION_LABELS, IC_CARD_ACTIONS],
    ['chips', IC_CARD_CHIP_LABELS, ['CPU', 'M1']],
    ['ledger kinds', LEDGER_KIND_LABELS, LEDGER_KINDS],
    ['account kinds', IC_ACCOUNT_KIND_LABELS, IC_ACCOUNT_KINDS],
  ] as const)('every one of the %s has a label in each language', (_name, labels, codes) => {
    expect(Object.keys(labels).sort()).toEqual([...codes].sort());
    for (const label of Object.values(labels)) {
      for (const language of LABEL_LANGUAGES) expect(label[language].trim()).not.toBe('');
    }
  });

  it('keeps the spec’s words for the §8 reader messages', () => {
    expect(IC_CARD_MESSAGE_LABELS.readCpuCardFailed['en-US']).toBe('Read CPU card failed');
    expect(IC_CARD_MESSAGE_LABELS.makeCpuCardFailed['en-US']).toBe('Make or print CPU card failed');
    expect(IC_CARD_MESSAGE_LABELS.abnormalCardReading['en-US']).toBe(
      'Abnormal card reading (no card or card already used)',
    );
    expect(IC_CARD_MESSAGE_LABELS.cardKeyInitFailed['en-US']).toBe('Card key initialisation failed');
    expect(IC_CARD_MESSAGE_LABELS.idMismatch['en-US']).toBe('ID mismatch');
    expect(IC_CARD_MESSAGE_LABELS.cardAbnormal['en-US']).toBe('An abnormal card cannot continue');
  });
});
