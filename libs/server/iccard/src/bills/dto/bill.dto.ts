import { apiSchemas, gridPageOf, INT32_MAX, intParam, view } from '@voltdepot/server-core';
import { z } from 'zod';
import { filterEnum, filterText } from '../../dto/iccard.dto';
import { exportLanguageSchema } from '../../queries/dto/iccard-query.dto';

export const BILL_ACCOUNT_KINDS = ['personal', 'group', 'group_sub'] as const;
export type BillAccountKind = (typeof BILL_ACCOUNT_KINDS)[number];

/** The first month a bill can be asked for: no ledger has postings before it (and 0000-01 is no month). */
export const FIRST_BILL_MONTH = '1970-01';

/** `YYYY-MM`; a month still to come is refused by the service (it knows the business time zone). */
export const billMonthSchema = z
  .string({ required_error: 'month is required (YYYY-MM)', invalid_type_error: 'month must be YYYY-MM' })
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month must be YYYY-MM')
  .refine((month) => month >= FIRST_BILL_MONTH, `month must be ${FIRST_BILL_MONTH} or later`);

export const billQuerySchema = z.object({
  month: billMonthSchema,
  name: filterText(50),
  kind: filterEnum([...BILL_ACCOUNT_KINDS]),
});
export type BillQuery = z.output<typeof billQuerySchema>;

export const billExportQuerySchema = billQuerySchema.merge(exportLanguageSchema);
export type BillExportQuery = z.output<typeof billExportQuerySchema>;

export const billDocumentQuerySchema = exportLanguageSchema;
export type BillDocumentQuery = z.output<typeof billDocumentQuerySchema>;

const accountIdMessage = 'accountId must be a positive whole number';
export const billParamsSchema = z.object({
  accountId: intParam(1, INT32_MAX, { type: accountIdMessage, min: accountIdMessage, max: accountIdMessage }),
  month: billMonthSchema,
});
export type BillParams = z.output<typeof billParamsSchema>;

const fen = () => z.number().int();

export const icBillSummarySchema = apiSchemas.named(
  'IcBillSummary',
  view({
    accountId: z.number().int(),
    kind: z.enum(BILL_ACCOUNT_KINDS),
    customerId: z.number().int(),
    name: z.string(),
    month: z.string(),
    openingFen: fen(),
    rechargedFen: fen(),
    consumedFen: fen(),
    refundedFen: fen(),
    /** Net allocations to (and reclaims from) the account, between a group and its sub-accounts. */
    transferredFen: fen(),
    correctedFen: fen(),
    closingFen: fen(),
    orderCount: z.number().int().min(0),
  }),
);
export type IcBillSummary = z.infer<typeof icBillSummarySchema>;

export const icBillPageSchema = gridPageOf('IcBillPage', icBillSummarySchema);

export const icBillLineSchema = apiSchemas.named(
  'IcBillLine',
  view({
    /** `YYYY-MM-DD HH:mm:ss` in the business time zone. */
    occurredAt: z.string(),
    /** The ledger transaction's kind: recharge, refund, consumption, consumption_amendment, allocation, reclaim, correction. */
    kind: z.string(),
    /** The order number of a consumption line. */
    reference: z.string().nullable(),
    amountFen: fen(),
    balanceAfterFen: fen(),
  }),
);
export type IcBillLine = z.infer<typeof icBillLineSchema>;

export const icBillStatementSchema = apiSchemas.named(
  'IcBillStatement',
  view({ summary: icBillSummarySchema, lines: z.array(icBillLineSchema) }),
);
export type IcBillStatement = z.infer<typeof icBillStatementSchema>;
