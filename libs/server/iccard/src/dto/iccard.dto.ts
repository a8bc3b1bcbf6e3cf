import { apiSchemas, gridPageOf, INT32_MAX, intParam, view } from '@voltdepot/server-core';
import {
  CARD_STATUSES,
  IC_CARD_ACTIONS,
  IC_CARD_CHIPS,
  IC_CARD_MESSAGE_LABELS,
  type IcCardMessageCode,
  parseRechargeAmount,
} from '@voltdepot/shared-contracts';
import { z } from 'zod';

/** The English words of an area message (the console shows the label of `messageCode` in its language). */
const say = (code: IcCardMessageCode) => IC_CARD_MESSAGE_LABELS[code]['en-US'];

/** Required text: blank is missing (§5's "... is required"), at most `max` characters. */
const required = (code: IcCardMessageCode, max: number) =>
  z
    .string({ required_error: say(code), invalid_type_error: say(code) })
    .trim()
    .min(1, say(code))
    .max(max, `must be at most ${max} characters`);

/** Optional text: blank or null is absent. */
const optional = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z.string().trim().max(max, `must be at most ${max} characters`).nullish(),
  );

const id = (message: string) =>
  z.number({ invalid_type_error: message }).int(message).min(1, message).max(INT32_MAX, message);

/** A card number: what the reader writes on the card and the pile sends as its idTag. */
export const cardNoSchema = z
  .string({ required_error: say('cardNumberRequired') })
  .trim()
  .min(1, say('cardNumberRequired'))
  .regex(/^[A-Za-z0-9-]{1,32}$/, 'must be 1 to 32 letters, digits or -');

/**
 * The number of a card being registered: at most 16 characters, what the basic-data charging card's
 * physical and self number hold (`charging_card`, varchar(16)) and so what the pile can be answered for
 * (the assets area keeps that card from `iccard.card.changed`; a longer number would never reach the
 * pile). Reading and acting on a card keeps `cardNoSchema`: a card registered before this rule stays
 * reachable.
 */
export const newCardNoSchema = z
  .string({ required_error: say('cardNumberRequired') })
  .trim()
  .min(1, say('cardNumberRequired'))
  .max(16, 'must be at most 16 characters (the charging card number the pile sends)')
  .regex(/^[A-Za-z0-9-]*$/, 'must be letters, digits or -');

/**
 * A money amount in yuan, as the operator types it: at most two decimals (§5, §9), turned into fen.
 * A JSON number is read as its decimal text. The rule is the console's (`parseRechargeAmount`).
 */
const yuan = (code: IcCardMessageCode) =>
  z.preprocess(
    (v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v),
    z
      .string({ required_error: say(code), invalid_type_error: say('rechargeAmountInvalid') })
      .transform((text, ctx) => {
        const amount = parseRechargeAmount(text);
        if (amount.ok) return amount.fen;
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: say(amount.code === 'rechargeAmountRequired' ? code : amount.code),
        });
        return z.NEVER;
      }),
  );

/** The client's id of one operation: a retry sends the same one and gets the first answer. */
const requestId = z
  .string({ required_error: 'Please send a request id' })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8 to 64 letters, digits, _ or -');

// Requests

export const saveCompanySchema = z.object({
  number: required('companyNumberRequired', 32),
  name: required('companyNameRequired', 100),
  contacts: required('contactsRequired', 50),
  contactInformation: required('contactInformationRequired', 100),
  /** Defaults on creation to the caller's first organisation, on modification to the company's own. */
  organizationId: id('organizationId must be a positive whole number').optional(),
});
export type SaveCompanyDto = z.output<typeof saveCompanySchema>;

export const saveCustomerSchema = z
  .object({
    clientType: z.union([z.literal(1), z.literal(2), z.literal(3)], {
      errorMap: () => ({ message: 'must be 1 (personal), 2 (group) or 3 (group external card)' }),
    }),
    /** The group (a customer of client type 2) a group external card's holder belongs to. */
    groupId: id('groupId must be a positive whole number').nullish(),
    userName: required('userNameRequired', 50),
    certificateType: required('certificateTypeRequired', 20),
    certificateNumber: required('certificateNumberRequired', 32).pipe(
      z.string().regex(/^[A-Za-z0-9]+$/, 'must be letters and digits'),
    ),
    customerType: required('customerTypeRequired', 20),
    phone: optional(20).pipe(
      z
        .string()
        .regex(/^[0-9+\- ]{3,20}$/, 'must be a phone number')
        .nullish(),
    ),
    companyId: id('companyId must be a positive whole number').nullish(),
    gender: z
      .union([z.literal(0), z.literal(1)], {
        errorMap: () => ({ message: 'must be 0 (male) or 1 (female)' }),
      })
      .nullish(),
    nation: optional(20),
    address: optional(200),
    identityVerified: z.boolean().default(false),
    organizationId: id('organizationId must be a positive whole number').optional(),
  })
  .superRefine((dto, ctx) => {
    if (dto.clientType === 3 && !dto.groupId)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['groupId'],
        message: 'a group external card belongs to a group',
      });
    if (dto.clientType !== 3 && dto.groupId)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['groupId'],
        message: 'only a group external card belongs to a group',
      });
  });
export type SaveCustomerDto = z.output<typeof saveCustomerSchema>;

export const createCardSchema = z.object({
  cardNo: newCardNoSchema,
  chip: z.enum(IC_CARD_CHIPS, { errorMap: () => ({ message: 'must be CPU or M1' }) }),
  /** Basic-data card type: 0 driver, 1 consumer, 2 management, 3 charging. */
  cardType: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], {
    errorMap: () => ({ message: 'must be 0 (driver), 1 (consumer), 2 (management) or 3 (charging)' }),
  }),
  customerId: id('customerId must be a positive whole number'),
});
export type CreateCardDto = z.output<typeof createCardSchema>;

export const cardActionParamsSchema = z.object({
  cardNo: cardNoSchema,
  action: z.enum(IC_CARD_ACTIONS, {
    errorMap: () => ({ message: `must be one of ${IC_CARD_ACTIONS.join(', ')}` }),
  }),
});
export type CardActionParams = z.output<typeof cardActionParamsSchema>;

export const cardActionSchema = z.object({
  requestId,
  /** The number the reader read from the card in the slot (actions done with the card). */
  presentedCardNo: cardNoSchema.optional(),
  /** The holder's certificate number (actions done without the card). */
  certificateNumber: optional(32),
  /** Recharge: required; refund: optional (the whole balance). Yuan, at most two decimals. */
  amount: yuan('rechargeAmountRequired').optional(),
});
export type CardActionDto = z.output<typeof cardActionSchema>;

export const groupTransferSchema = z.object({
  requestId,
  /** The group's user (client type 3) whose sub-account gets or gives the balance. */
  memberId: id('memberId must be a positive whole number'),
  amount: yuan('accountBalanceRequired'),
});
export type GroupTransferDto = z.output<typeof groupTransferSchema>;

export const groupTransferParamsSchema = z.object({
  id: intParam(1, INT32_MAX, {
    type: 'id must be a positive whole number',
    min: 'id must be a positive whole number',
    max: 'id must be a positive whole number',
  }),
  direction: z.enum(['allocate', 'reclaim'], {
    errorMap: () => ({ message: 'must be allocate or reclaim' }),
  }),
});
export type GroupTransferParams = z.output<typeof groupTransferParamsSchema>;

/** Optional text filter without NUL (the global interceptor refuses NUL first). */
export const filterText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().trim().max(max, `must be at most ${max} characters`).optional(),
  );
export const filterId = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z
    .string()
    .regex(/^\d{1,10}$/, 'must be a positive whole number')
    .transform(Number)
    .refine((n) => n >= 1 && n <= INT32_MAX, 'must be a positive whole number')
    .optional(),
);
export const filterEnum = <T extends [string, ...string[]]>(values: T) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.enum(values, { errorMap: () => ({ message: `must be one of ${values.join(', ')}` }) }).optional(),
  );

export const companyQuerySchema = z.object({ number: filterText(32), name: filterText(100) });
export type CompanyQuery = z.output<typeof companyQuerySchema>;
export const customerQuerySchema = z.object({
  userName: filterText(50),
  clientType: filterEnum(['1', '2', '3']),
  companyId: filterId,
  groupId: filterId,
});
export type CustomerQuery = z.output<typeof customerQuerySchema>;
export const cardQuerySchema = z.object({
  cardNo: filterText(32),
  status: filterEnum([...CARD_STATUSES]),
  chip: filterEnum([...IC_CARD_CHIPS]),
  /** Basic-data card type: 0 driver (the driver-card screen), 1 consumer, 2 management, 3 charging. */
  cardType: filterEnum(['0', '1', '2', '3']),
  customerId: filterId,
});
export type CardQuery = z.output<typeof cardQuerySchema>;
export const actionQuerySchema = z.object({
  cardNo: filterText(32),
  action: filterEnum([...IC_CARD_ACTIONS]),
  customerId: filterId,
});
export type ActionQuery = z.output<typeof actionQuerySchema>;

// Answers

export const icCompanyViewSchema = apiSchemas.named(
  'IcCompanyView',
  view({
    id: z.number().int(),
    organizationId: z.number().int(),
    number: z.string(),
    name: z.string(),
    contacts: z.string(),
    contactInformation: z.string(),
    updatedAt: z.string(),
  }),
);
export type IcCompanyView = z.infer<typeof icCompanyViewSchema>;
export const icCompanyPageSchema = gridPageOf('IcCompanyPage', icCompanyViewSchema);

export const icCustomerViewSchema = apiSchemas.named(
  'IcCustomerView',
  view({
    id: z.number().int(),
    organizationId: z.number().int(),
    clientType: z.number().int().describe('1 personal, 2 group, 3 group external card'),
    groupId: z.number().int().nullable(),
    userName: z.string(),
    certificateType: z.string(),
    certificateNumber: z.string(),
    customerType: z.string(),
    phone: z.string().nullable(),
    companyId: z.number().int().nullable(),
    companyName: z.string().nullable(),
    gender: z.number().int().nullable().describe('0 male, 1 female'),
    nation: z.string().nullable(),
    address: z.string().nullable(),
    identityVerified: z.boolean(),
    accountId: z.number().int().nullable(),
    accountKind: z.string().nullable().describe('personal, group or group_sub'),
    balanceFen: z.number().int().nullable(),
    arrearsFen: z.number().int().nullable(),
    updatedAt: z.string(),
  }),
);
export type IcCustomerView = z.infer<typeof icCustomerViewSchema>;
export const icCustomerPageSchema = gridPageOf('IcCustomerPage', icCustomerViewSchema);

export const icCardViewSchema = apiSchemas.named(
  'IcCardView',
  view({
    id: z.number().int(),
    cardNo: z.string(),
    chip: z.enum(IC_CARD_CHIPS),
    cardType: z.number().int().describe('0 driver, 1 consumer, 2 management, 3 charging'),
    status: z.enum(CARD_STATUSES),
    customerId: z.number().int(),
    customerName: z.string(),
    accountId: z.number().int(),
    balanceFen: z.number().int(),
    issuedAt: z.string(),
    updatedAt: z.string(),
  }),
);
export type IcCardView = z.infer<typeof icCardViewSchema>;
export const icCardPageSchema = gridPageOf('IcCardPage', icCardViewSchema);

export const icCardActionViewSchema = apiSchemas.named(
  'IcCardActionView',
  view({
    id: z.number().int(),
    cardNo: z.string(),
    customerName: z.string(),
    action: z.enum(IC_CARD_ACTIONS),
    statusBefore: z.enum(CARD_STATUSES),
    statusAfter: z.enum(CARD_STATUSES),
    notes: z.array(z.string()).describe('IC card message codes for the operator (askLogout...)'),
    amountFen: z.number().int().nullable().describe('Money moved on the account: + recharge, - refund'),
    balanceBeforeFen: z.number().int().nullable(),
    balanceAfterFen: z.number().int().nullable(),
    operatorId: z.number().int(),
    occurredAt: z.string(),
  }),
);
export type IcCardActionView = z.infer<typeof icCardActionViewSchema>;
export const icCardActionPageSchema = gridPageOf('IcCardActionPage', icCardActionViewSchema);

export const icCardActionResultSchema = apiSchemas.named(
  'IcCardActionResult',
  view({
    record: icCardActionViewSchema,
    card: icCardViewSchema,
    /** True when this request id was done before: nothing was done now. */
    replayed: z.boolean(),
  }),
);
export type IcCardActionResult = z.infer<typeof icCardActionResultSchema>;

export const groupTransferResultSchema = apiSchemas.named(
  'IcGroupTransferResult',
  view({
    groupBalanceFen: z.number().int(),
    memberBalanceFen: z.number().int(),
    replayed: z.boolean(),
  }),
);
export type GroupTransferResult = z.infer<typeof groupTransferResultSchema>;
