/**
 * IC cards (business-areas §1, §4, §5, §6, §8): the card's chip, the operator's actions and the one
 * table that says which action a card in a given status allows, with the messages of the area. Pure and
 * browser-safe: the console asks it before it enables a button, the server asks it again before it
 * writes. The table and its reasons are in docs/ic-cards.md.
 *
 * The coded lists the area shares with basic data live in code-labels.ts: card status (`CARD_STATUSES`),
 * basic-data card types 0-3 (`CARD_TYPES`: driver, consumer, management, charging) and client types
 * (`CUSTOMER_TYPES`: 1 personal, 2 group, 3 group external card).
 */
import type { CardStatus, CodeLabel, CodeLabels } from './code-labels';

const l = (zh: string, en: string): CodeLabel => ({ 'zh-CN': zh, 'en-US': en });

/** The chip of an IC card: a CPU (smart) card or a Mifare Classic M1 card. */
export const IC_CARD_CHIPS = ['CPU', 'M1'] as const;
export type IcCardChip = (typeof IC_CARD_CHIPS)[number];
export const IC_CARD_CHIP_LABELS: CodeLabels<IcCardChip> = {
  CPU: l('CPU 卡', 'CPU card'),
  M1: l('M1 卡', 'M1 card'),
};

/** What an operator does to a card (§4), in the order the screens show them. */
export const IC_CARD_ACTIONS = [
  'makeCpu',
  'makeM1',
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
export type IcCardAction = (typeof IC_CARD_ACTIONS)[number];
export const IC_CARD_ACTION_LABELS: CodeLabels<IcCardAction> = {
  makeCpu: l('制作 CPU 卡', 'Make CPU card'),
  makeM1: l('制作 M1 卡', 'Make M1 card'),
  read: l('读卡', 'Read card'),
  reportLoss: l('挂失', 'Report loss'),
  releaseLoss: l('解挂', 'Release loss'),
  replace: l('补卡', 'Replace'),
  swap: l('换卡', 'Swap'),
  recharge: l('充值', 'Recharge'),
  refundWithCard: l('有卡退款', 'Refund with card'),
  refundWithoutCard: l('无卡退款', 'Refund without card'),
  logout: l('注销', 'Log out'),
};

/**
 * How an action proves the customer's right to it: with the card in the reader (its number must be the
 * record's), or without it by the holder's certificate number (it must be the registered one).
 */
export type IcCardProof = 'card' | 'identity' | 'none';

/**
 * Every message of the IC card area: the §5 rules, the §8 reader failures and successes, and the
 * refusals and notes of the state machine. Where the spec words a message, the English keeps its words.
 */
export const IC_CARD_MESSAGE_CODES = [
  // §5: required fields
  'companyNumberRequired',
  'companyNameRequired',
  'userNameRequired',
  'certificateTypeRequired',
  'certificateNumberRequired',
  'customerTypeRequired',
  'cardNumberRequired',
  'rechargeAmountRequired',
  'verificationCodeRequired',
  'contactsRequired',
  'contactInformationRequired',
  'accountBalanceRequired',
  // §5: rules
  'balanceNotNumeric',
  'rechargeAmountInvalid',
  'selfNumberRepeated',
  'refundBalanceNotPositive',
  'insufficientBalance',
  'cardAbnormal',
  'idNumberMismatch',
  // §8: the card reader
  'readCpuCardFailed',
  'makeCpuCardFailed',
  'abnormalCardReading',
  'cardKeyInitFailed',
  'readFailed',
  'refundFailed',
  'rechargeFailed',
  'idMismatch',
  // Ours: §8 names no failure for making an M1 card
  'makeM1CardFailed',
  // §8: successes
  'cardReadSucceeded',
  'rechargeSucceeded',
  'refundSucceeded',
  // The state machine's own refusals (each a case of "an abnormal card cannot continue", said precisely)
  'cardNotMade',
  'cardAlreadyMade',
  'cardOccupied',
  'cardNotLost',
  'wrongChip',
  'refundBeforeLogout',
  // The state machine's notes to the operator
  'askLogout',
  'chargingContinues',
  'issueNewCard',
] as const;
export type IcCardMessageCode = (typeof IC_CARD_MESSAGE_CODES)[number];
export const IC_CARD_MESSAGE_LABELS: CodeLabels<IcCardMessageCode> = {
  companyNumberRequired: l('公司编号不能为空', 'Company number is required'),
  companyNameRequired: l('公司名称不能为空', 'Company name is required'),
  userNameRequired: l('用户名不能为空', 'User name is required'),
  certificateTypeRequired: l('证件类型不能为空', 'Certificate type is required'),
  certificateNumberRequired: l('证件号码不能为空', 'Certificate number is required'),
  customerTypeRequired: l('客户类型不能为空', 'Customer type is required'),
  cardNumberRequired: l('卡号不能为空', 'Card number is required'),
  rechargeAmountRequired: l('充值金额不能为空', 'Recharge amount is required'),
  verificationCodeRequired: l('验证码不能为空', 'Verification code is required'),
  contactsRequired: l('联系人不能为空', 'Contacts are required'),
  contactInformationRequired: l('联系方式不能为空', 'Contact information is required'),
  accountBalanceRequired: l('账户余额不能为空', 'Account balance is required'),
  balanceNotNumeric: l('余额必须为数字', 'The balance must be a number'),
  rechargeAmountInvalid: l(
    '请输入正确的充值金额（最多两位小数）',
    'Enter a correct recharge amount, with at most two decimals',
  ),
  selfNumberRepeated: l('卡自编号重复', 'This card self number is already used'),
  refundBalanceNotPositive: l('余额不大于 0，不能退款', 'The balance is not above 0: no refund'),
  insufficientBalance: l('余额不足', 'Insufficient balance'),
  cardAbnormal: l('卡片状态异常，不能继续操作', 'An abnormal card cannot continue'),
  idNumberMismatch: l(
    '证件号码与登记的不一致，验证失败',
    'The ID number does not match the registered one: verification failed',
  ),
  readCpuCardFailed: l('读 CPU 卡失败', 'Read CPU card failed'),
  makeCpuCardFailed: l('制作或打印 CPU 卡失败', 'Make or print CPU card failed'),
  abnormalCardReading: l(
    '读卡异常（无卡或卡已被使用）',
    'Abnormal card reading (no card or card already used)',
  ),
  cardKeyInitFailed: l('卡密钥初始化失败', 'Card key initialisation failed'),
  readFailed: l('读卡失败', 'Read failed'),
  refundFailed: l('退款失败', 'Refund failed'),
  rechargeFailed: l('充值失败', 'Recharge failed'),
  idMismatch: l('ID 不匹配', 'ID mismatch'),
  makeM1CardFailed: l('制作 M1 卡失败', 'Make M1 card failed'),
  cardReadSucceeded: l('读卡成功', 'Card read'),
  rechargeSucceeded: l('充值成功', 'Recharged'),
  refundSucceeded: l('退款成功', 'Refunded'),
  cardNotMade: l('该卡尚未制卡', 'This card has not been made yet'),
  cardAlreadyMade: l('该卡已制卡', 'This card has already been made'),
  cardOccupied: l(
    '该卡正在充电中，请结束充电后再操作',
    'This card is in a charging session: try again when it ends',
  ),
  cardNotLost: l('该卡未挂失', 'This card is not reported lost'),
  wrongChip: l('卡片类型不符', 'This card is of the other chip type'),
  refundBeforeLogout: l('卡内尚有余额，请先退款', 'The card still has a balance: refund it first'),
  askLogout: l('退款成功，是否注销该卡？', 'Refunded. Log the card out?'),
  chargingContinues: l(
    '该卡正在充电，当前充电不会停止',
    'The card is in a charging session, which goes on until it ends',
  ),
  issueNewCard: l(
    '原卡已失效，请为该账户制作新卡',
    'The old card is invalid: make a new card for the account',
  ),
};

/** What the caller knows when it asks for an action. */
export type IcCardContext = {
  /** The chip the card record was registered with. */
  chip: IcCardChip;
  /** The card's number on the record. */
  cardNo: string;
  /** The balance behind the card, in fen (for a group sub-card, its sub-account's). */
  balanceFen: number;
  /** The number the reader read from the card in the slot, for the actions done with the card. */
  presentedCardNo?: string;
  /** The certificate number registered for the holder, for the actions done without the card. */
  registeredIdNumber?: string;
  /** The certificate number the holder gives now. */
  presentedIdNumber?: string;
  /** A recharge's amount, in fen. */
  rechargeFen?: number;
  /** A refund's amount, in fen (the whole balance when not given). */
  refundFen?: number;
};

/** The answer: the card's next status with notes for the operator, or a refusal with its message. */
export type IcCardTransition =
  { ok: true; status: CardStatus; notes: IcCardMessageCode[] } | { ok: false; code: IcCardMessageCode };

type Rule = {
  /** The statuses the action applies to, with the status it leads to. */
  from: Partial<Record<CardStatus, CardStatus>>;
  proof: (status: CardStatus) => IcCardProof;
  notes?: (status: CardStatus) => IcCardMessageCode[];
};

const always =
  <T>(value: T) =>
  () =>
    value;

/** The table (docs/ic-cards.md). A status missing from an action's `from` refuses it. */
const RULES: Record<IcCardAction, Rule> = {
  makeCpu: { from: { notMade: 'normal' }, proof: always('none') },
  makeM1: { from: { notMade: 'normal' }, proof: always('none') },
  read: {
    from: {
      normal: 'normal',
      occupied: 'occupied',
      lost: 'lost',
      cancelled: 'cancelled',
      invalid: 'invalid',
    },
    proof: always('none'),
    // Reading is how an operator finds out what a card is: it works on an abnormal card and says so.
    notes: (status) => (status === 'normal' || status === 'occupied' ? [] : ['cardAbnormal']),
  },
  reportLoss: {
    from: { normal: 'lost', occupied: 'lost' },
    proof: always('identity'),
    notes: (status) => (status === 'occupied' ? ['chargingContinues'] : []),
  },
  releaseLoss: { from: { lost: 'normal' }, proof: always('identity') },
  replace: { from: { lost: 'invalid' }, proof: always('identity'), notes: always(['issueNewCard']) },
  swap: { from: { normal: 'invalid' }, proof: always('card'), notes: always(['issueNewCard']) },
  recharge: { from: { normal: 'normal' }, proof: always('card') },
  refundWithCard: { from: { normal: 'normal' }, proof: always('card'), notes: always(['askLogout']) },
  refundWithoutCard: { from: { lost: 'lost' }, proof: always('identity'), notes: always(['askLogout']) },
  logout: {
    from: { normal: 'cancelled', lost: 'cancelled' },
    // A lost card cannot be in the reader: its holder proves who they are instead.
    proof: (status) => (status === 'lost' ? 'identity' : 'card'),
  },
};

/** Why an action does not apply to a card in this status: the most precise message there is. */
function refusalFor(status: CardStatus, action: IcCardAction): IcCardMessageCode {
  switch (status) {
    case 'notMade':
      return 'cardNotMade';
    case 'occupied':
      return 'cardOccupied';
    case 'normal':
      if (action === 'makeCpu' || action === 'makeM1') return 'cardAlreadyMade';
      return 'cardNotLost';
    case 'lost':
      if (action === 'makeCpu' || action === 'makeM1') return 'cardAlreadyMade';
      return 'cardAbnormal';
    case 'cancelled':
    case 'invalid':
      return 'cardAbnormal';
  }
}

/** The statuses an action applies to (a button is enabled in exactly these). */
export function statusesAllowing(action: IcCardAction): CardStatus[] {
  return Object.keys(RULES[action].from) as CardStatus[];
}

/** How the action is proven for a card in this status. */
export function proofOf(action: IcCardAction, status: CardStatus): IcCardProof {
  return RULES[action].proof(status);
}

/** A certificate number as registered: case and spaces aside (a Chinese ID's final X may be written x). */
export function sameIdNumber(a: string, b: string): boolean {
  const normal = (value: string) => value.replace(/\s+/g, '').toUpperCase();
  return normal(a) !== '' && normal(a) === normal(b);
}

/**
 * The recharge amount the operator typed, in yuan with at most two decimals, as fen; or the §5 message.
 * Above zero and at most 10 million yuan, so fen stay exact integers.
 */
export function parseRechargeAmount(text: string | undefined | null):
  | { ok: true; fen: number }
  | {
      ok: false;
      code: IcCardMessageCode;
    } {
  const value = (text ?? '').trim();
  if (value === '') return { ok: false, code: 'rechargeAmountRequired' };
  const match = /^(\d{1,8})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return { ok: false, code: 'rechargeAmountInvalid' };
  const fen = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (fen <= 0) return { ok: false, code: 'rechargeAmountInvalid' };
  return { ok: true, fen };
}

function proven(proof: IcCardProof, context: IcCardContext): IcCardMessageCode | undefined {
  switch (proof) {
    case 'none':
      return undefined;
    case 'card':
      if (!context.presentedCardNo) return 'abnormalCardReading';
      return context.presentedCardNo === context.cardNo ? undefined : 'idMismatch';
    case 'identity':
      if (!context.presentedIdNumber?.trim()) return 'certificateNumberRequired';
      return sameIdNumber(context.presentedIdNumber, context.registeredIdNumber ?? '')
        ? undefined
        : 'idNumberMismatch';
  }
}

function moneyRule(action: IcCardAction, context: IcCardContext): IcCardMessageCode | undefined {
  switch (action) {
    case 'recharge': {
      const fen = context.rechargeFen;
      if (fen === undefined) return 'rechargeAmountRequired';
      return Number.isSafeInteger(fen) && fen > 0 ? undefined : 'rechargeAmountInvalid';
    }
    case 'refundWithCard':
    case 'refundWithoutCard': {
      if (!(context.balanceFen > 0)) return 'refundBalanceNotPositive';
      const fen = context.refundFen ?? context.balanceFen;
      if (!Number.isSafeInteger(fen) || fen <= 0) return 'refundBalanceNotPositive';
      return fen > context.balanceFen ? 'insufficientBalance' : undefined;
    }
    case 'logout':
      return context.balanceFen > 0 ? 'refundBeforeLogout' : undefined;
    default:
      return undefined;
  }
}

/**
 * May the operator do `action` to a card in `status`? The checks run in the order an operator meets
 * them: the card's status, the chip, the proof (card in the reader, or the holder's certificate), then
 * the money.
 */
export function cardTransition(
  status: CardStatus,
  action: IcCardAction,
  context: IcCardContext,
): IcCardTransition {
  const rule = RULES[action];
  const next = rule.from[status];
  if (next === undefined) return { ok: false, code: refusalFor(status, action) };
  if ((action === 'makeCpu' && context.chip !== 'CPU') || (action === 'makeM1' && context.chip !== 'M1')) {
    return { ok: false, code: 'wrongChip' };
  }
  const refusal = proven(rule.proof(status), context) ?? moneyRule(action, context);
  if (refusal) return { ok: false, code: refusal };
  return { ok: true, status: next, notes: rule.notes?.(status) ?? [] };
}

/** A charging session on the card: the pile's start and end move it between normal and occupied. */
export type IcCardSessionEvent = 'sessionStarted' | 'sessionEnded';

/**
 * The card's status after a session event. A session starts only on a normal card (the gateway answers
 * any other Blocked); its end frees an occupied card and leaves a card reported lost meanwhile lost.
 */
export function cardSessionTransition(status: CardStatus, event: IcCardSessionEvent): IcCardTransition {
  if (event === 'sessionStarted') {
    return status === 'normal'
      ? { ok: true, status: 'occupied', notes: [] }
      : { ok: false, code: status === 'occupied' ? 'cardOccupied' : 'cardAbnormal' };
  }
  return status === 'occupied' ? { ok: true, status: 'normal', notes: [] } : { ok: true, status, notes: [] };
}

/** The kinds of ledger transaction an IC-card account's records show (docs/ledger.md). */
export const LEDGER_KINDS = [
  'recharge',
  'refund',
  'consumption',
  'consumption_amendment',
  'allocation',
  'reclaim',
  'correction',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
export const LEDGER_KIND_LABELS: CodeLabels<LedgerKind> = {
  recharge: l('充值', 'Recharge'),
  refund: l('退款', 'Refund'),
  consumption: l('充电消费', 'Charging consumption'),
  consumption_amendment: l('消费修正', 'Consumption amendment'),
  allocation: l('集团分配', 'Group allocation'),
  reclaim: l('集团回收', 'Group reclaim'),
  correction: l('调账', 'Correction'),
};

/** The kinds of IC-card customer account: a personal account, a group's account, a group user's sub-account. */
export const IC_ACCOUNT_KINDS = ['personal', 'group', 'group_sub'] as const;
export type IcAccountKind = (typeof IC_ACCOUNT_KINDS)[number];
export const IC_ACCOUNT_KIND_LABELS: CodeLabels<IcAccountKind> = {
  personal: l('个人账户', 'Personal account'),
  group: l('集团账户', 'Group account'),
  group_sub: l('集团子账户', 'Group sub-account'),
};

/**
 * The order a ledger transaction belongs to: a charging consumption (or its amendment) names its order in
 * its reference; the other kinds carry internal references (`card:<no>`, `group:<id>`), never shown as one.
 */
export function orderNumberOf(kind: string, reference: string | null): string | null {
  return kind.startsWith('consumption') ? reference : null;
}
