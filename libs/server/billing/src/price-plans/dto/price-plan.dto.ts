import { apiSchemas, gridPageOf, view } from '@voltdepot/server-core';
import { z } from 'zod';
import { PRICE_SCALE, STAGE_TYPES } from '../../pricing/price-plan';

/**
 * A price per kWh in yuan with at most 4 decimals, given as a number or a decimal string
 * ("0.8523"). Parsed exactly into 1/10,000 yuan: no binary floating point on the way.
 */
export const yuanPerKwh = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = /^(\d{1,3})(?:\.(\d{1,4}))?$/.exec(text);
  if (!match) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: 'must be a price in yuan/kWh with at most 4 decimals, e.g. 0.8523',
    });
    return z.NEVER;
  }
  const units = Number(match[1]) * PRICE_SCALE + Number((match[2] ?? '').padEnd(4, '0'));
  if (units > 100 * PRICE_SCALE) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must not exceed 100 yuan/kWh' });
    return z.NEVER;
  }
  return units;
});

const timeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'must be a time of day HH:mm (00:00-24:00)');

export const pricePlanStageSchema = z.object({
  stageType: z.enum(STAGE_TYPES, {
    errorMap: () => ({ message: `must be one of ${STAGE_TYPES.join(', ')}` }),
  }),
  startTime: timeOfDay,
  endTime: timeOfDay,
  electricityPrice: yuanPerKwh,
  serviceFee: yuanPerKwh,
});

/**
 * From when new stages or a station's plan apply: an ISO-8601 instant with an offset, not in the past
 * (checked by the service against its clock); absent means now.
 */
const effectiveFrom = z
  .string()
  .datetime({ offset: true, message: 'must be an ISO-8601 date-time with an offset' })
  .optional();

export const savePricePlanSchema = z.object({
  name: z.string().trim().min(1, 'Please enter the plan name').max(64, 'must be at most 64 characters'),
  isDefault: z.boolean().default(false),
  stages: z.array(pricePlanStageSchema).min(1, 'at least one stage is required').max(48, 'at most 48 stages'),
  /** From when edited stages apply (a new version); sessions that started earlier keep the old ones. */
  effectiveFrom,
});
export type SavePricePlanDto = z.output<typeof savePricePlanSchema>;

export const assignPricePlanSchema = z.object({
  planId: z.number().int().positive().max(2_147_483_647),
  effectiveFrom,
});
export type AssignPricePlanDto = z.output<typeof assignPricePlanSchema>;

// Answers

const yuan = z.string().describe('Yuan per kWh, 4 decimals ("0.8523")');

export const pricePlanStageViewSchema = apiSchemas.named(
  'PricePlanStageView',
  view({
    stageType: z.enum(STAGE_TYPES),
    startTime: z.string().describe('HH:mm'),
    endTime: z.string().describe('HH:mm, or 24:00; a stage ending at or before its start runs over midnight'),
    electricityPrice: yuan,
    serviceFee: yuan,
  }),
);
export type PricePlanStageView = z.infer<typeof pricePlanStageViewSchema>;

/** What the API returns: prices back as decimal yuan strings so clients never see float noise. */
export const pricePlanViewSchema = apiSchemas.named(
  'PricePlanView',
  view({
    id: z.number().int(),
    name: z.string(),
    isDefault: z.boolean(),
    updatedAt: z.string(),
    effectiveFrom: z
      .string()
      .nullable()
      .describe('From when the current stages apply; null: since always. Later than now: a scheduled change'),
    stages: z.array(pricePlanStageViewSchema),
  }),
);
export type PricePlanView = z.infer<typeof pricePlanViewSchema>;
export const pricePlanPageSchema = gridPageOf('PricePlanPage', pricePlanViewSchema);

/** One entry of a station's plan history: the plan priced sessions starting from `from` until `until`. */
export const stationPricePlanViewSchema = apiSchemas.named(
  'StationPricePlanView',
  view({
    planId: z.number().int(),
    planName: z.string(),
    from: z.string(),
    until: z.string().nullable().describe('null: still in force (the latest assignment)'),
    assignedAt: z.string(),
    assignedBy: z.string().nullable(),
  }),
);
export type StationPricePlanView = z.infer<typeof stationPricePlanViewSchema>;
