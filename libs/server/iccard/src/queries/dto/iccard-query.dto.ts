import { apiSchemas, gridPageOf, view } from '@voltdepot/server-core';
import {
  CARD_STATUSES,
  IC_ACCOUNT_KINDS,
  IC_CARD_CHIPS,
  LEDGER_KINDS,
  type LedgerKind,
} from '@voltdepot/shared-contracts';
import { z } from 'zod';
import {
  actionQuerySchema,
  cardNoSchema,
  cardQuerySchema,
  companyQuerySchema,
  customerQuerySchema,
  filterEnum,
  filterId,
  filterText,
  icCardActionViewSchema,
  icCardViewSchema,
  icCustomerViewSchema,
} from '../../dto/iccard.dto';

// Requests

export const cardDetailParamsSchema = z.object({ cardNo: cardNoSchema });
export type CardDetailParams = z.output<typeof cardDetailParamsSchema>;

export const accountQuerySchema = z.object({
  kind: filterEnum([...IC_ACCOUNT_KINDS]),
  /** Part of the customer's user name. */
  name: filterText(50),
  companyId: filterId,
});
export type AccountQuery = z.output<typeof accountQuerySchema>;

/** `2026-01-31T16:00:00Z`, `2026-02-01T00:00:00.000+08:00`: an instant, so its zone is explicit. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
/** The written day and time exist (Date would take 2026-02-31 for 2026-03-03). */
function calendarExists(text: string): boolean {
  const [y, m, d, h, mi, sec] = text.split(/[-T:.Z+]/).map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCMonth() === m - 1 && day.getUTCDate() === d && h <= 23 && mi <= 59 && (sec || 0) <= 59;
}
const instantMessage = 'must be an ISO 8601 instant with its time zone, e.g. 2026-01-31T16:00:00Z';
const filterInstant = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z
    .string({ invalid_type_error: instantMessage })
    .trim()
    .regex(ISO_INSTANT, instantMessage)
    .transform((text, ctx) => {
      const at = new Date(text);
      if (Number.isNaN(at.getTime()) || !calendarExists(text)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${text} is not a date that exists` });
        return z.NEVER;
      }
      return at;
    })
    .optional(),
);

const kindsMessage = `must be a comma-separated list of ${LEDGER_KINDS.join(', ')}`;
/** `recharge,refund`: any of the ledger's transaction kinds, comma-separated. */
const filterKinds = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z
    .string({ invalid_type_error: kindsMessage })
    .max(200, kindsMessage)
    .transform((text, ctx) => {
      const kinds = text.split(',').map((k) => k.trim());
      const unknown = kinds.filter((k) => !(LEDGER_KINDS as readonly string[]).includes(k));
      if (unknown.length) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `${unknown.map((k) => `"${k}"`).join(', ')} unknown: ${kindsMessage}`,
        });
        return z.NEVER;
      }
      return [...new Set(kinds)] as LedgerKind[];
    })
    .optional(),
);

export const recordQuerySchema = z
  .object({
    kind: filterKinds,
    /** The records of this card's account (consumption and corrections), or made by its actions. */
    cardNo: filterText(32),
    customerId: filterId,
    accountId: filterId,
    from: filterInstant,
    to: filterInstant,
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['to'], message: 'must not be before from' });
  });
export type RecordQuery = z.output<typeof recordQuerySchema>;

/** `lang` of an export or a document: the language of its headers and labels. */
export const exportLanguageSchema = z.object({
  lang: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.enum(['zh-CN', 'en-US'], { errorMap: () => ({ message: 'must be zh-CN or en-US' }) }).default('zh-CN'),
  ),
});
export type ExportLanguage = z.output<typeof exportLanguageSchema>['lang'];

/** Each list's export: the list's own filters and the sheet's language. */
export const companyExportSchema = companyQuerySchema.merge(exportLanguageSchema);
export const customerExportSchema = customerQuerySchema.merge(exportLanguageSchema);
export const cardExportSchema = cardQuerySchema.merge(exportLanguageSchema);
export const actionExportSchema = actionQuerySchema.merge(exportLanguageSchema);
export const accountExportSchema = accountQuerySchema.merge(exportLanguageSchema);
export const recordExportSchema = recordQuerySchema.and(exportLanguageSchema);
export type CompanyExport = z.output<typeof companyExportSchema>;
export type CustomerExport = z.output<typeof customerExportSchema>;
export type CardExport = z.output<typeof cardExportSchema>;
export type ActionExport = z.output<typeof actionExportSchema>;
export type AccountExport = z.output<typeof accountExportSchema>;
export type RecordExport = z.output<typeof recordExportSchema>;

// Answers

export const icAccountViewSchema = apiSchemas.named(
  'IcAccountView',
  view({
    accountId: z.number().int(),
    kind: z.enum(IC_ACCOUNT_KINDS),
    customerId: z.number().int(),
    name: z.string().describe("The customer's user name"),
    companyName: z.string().nullable(),
    balanceFen: z.number().int(),
    arrearsFen: z.number().int().describe('What the customer owes (consumption the balance could not cover)'),
    frozen: z.boolean(),
    consumedFen: z.number().int().describe('Cumulative charging consumption net of amendments (positive)'),
    rechargedFen: z.number().int().describe('Cumulative recharges'),
    userCount: z.number().int().nullable().describe("A group's users; null for other accounts"),
    contacts: z.string().nullable().describe("The company's contacts"),
    contactInformation: z
      .string()
      .nullable()
      .describe("The company's contact information, else the customer's phone"),
    cardCount: z.number().int(),
  }),
);
export type IcAccountView = z.infer<typeof icAccountViewSchema>;
export const icAccountPageSchema = gridPageOf('IcAccountPage', icAccountViewSchema);

export const icLedgerRecordViewSchema = apiSchemas.named(
  'IcLedgerRecordView',
  view({
    transactionId: z.number().int(),
    kind: z.enum(LEDGER_KINDS),
    accountId: z.number().int(),
    customerId: z.number().int(),
    customerName: z.string(),
    cardNo: z.string().nullable().describe('The card whose action made it (none for consumption)'),
    amountFen: z
      .number()
      .int()
      .describe(
        "Signed money of the record for the customer: + recharge, - consumption. Equals the balance's change, " +
          'less the arrears it settled or booked (arrearsChangeFen)',
      ),
    arrearsChangeFen: z.number().int().describe('+ arrears booked, - arrears settled; usually 0'),
    balanceBeforeFen: z.number().int().nullable().describe('Null when only the arrears moved'),
    balanceAfterFen: z.number().int().nullable(),
    reference: z
      .string()
      .nullable()
      .describe(
        'For consumption: the order number; for a card action card:<cardNo>; for a group transfer group:<id>',
      ),
    operatorId: z.number().int().nullable(),
    operatorName: z.string().nullable(),
    occurredAt: z.string(),
  }),
);
export type IcLedgerRecordView = z.infer<typeof icLedgerRecordViewSchema>;
export const icLedgerRecordPageSchema = apiSchemas.named(
  'IcLedgerRecordPage',
  view({
    list: z.array(icLedgerRecordViewSchema),
    total: z.number().int().min(0),
    sumFen: z.number().int().describe('The sum of amountFen over every record the filters match'),
  }),
);
export type IcLedgerRecordPage = z.infer<typeof icLedgerRecordPageSchema>;

export const icGroupMemberViewSchema = apiSchemas.named(
  'IcGroupMemberView',
  view({
    customerId: z.number().int(),
    userName: z.string(),
    phone: z.string().nullable(),
    accountId: z.number().int().nullable(),
    balanceFen: z.number().int(),
    arrearsFen: z.number().int(),
    consumedFen: z.number().int(),
    cards: z.array(view({ cardNo: z.string(), chip: z.enum(IC_CARD_CHIPS), status: z.enum(CARD_STATUSES) })),
  }),
);
export type IcGroupMemberView = z.infer<typeof icGroupMemberViewSchema>;

export const icGroupInfoSchema = apiSchemas.named(
  'IcGroupInfo',
  view({
    group: icCustomerViewSchema,
    account: icAccountViewSchema,
    members: z.array(icGroupMemberViewSchema),
  }),
);
export type IcGroupInfo = z.infer<typeof icGroupInfoSchema>;

export const icCardDetailSchema = apiSchemas.named(
  'IcCardDetail',
  view({
    card: icCardViewSchema,
    customer: icCustomerViewSchema,
    account: icAccountViewSchema,
    actions: z.array(icCardActionViewSchema).describe("The card's last 50 actions, newest first"),
    records: z.array(icLedgerRecordViewSchema).describe("The account's last 50 records, newest first"),
  }),
);
export type IcCardDetail = z.infer<typeof icCardDetailSchema>;
