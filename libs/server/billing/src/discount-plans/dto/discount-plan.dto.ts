import { apiSchemas, gridPageOf, view } from '@voltdepot/server-core';
import { z } from 'zod';

/**
 * A percentage given as a number or as decimal text ("95"). Not z.coerce: it turns null, "" and false
 * into 0, a plan under which the customer pays nothing.
 */
const percent = (label: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    z
      .number({
        required_error: `Please enter the ${label}`,
        invalid_type_error: `Please enter the ${label}`,
      })
      .int('must be a whole percentage')
      .min(0, 'must be between 0 and 100')
      .max(100, 'must be between 0 and 100'),
  );

/** An ISO-8601 date-time, handed on as a Date (the driver writes any year PostgreSQL holds). */
const instant = (label: string) =>
  z
    .string({ required_error: `Please enter the ${label}` })
    .datetime({ offset: true, message: 'must be an ISO-8601 date-time' })
    .transform((text) => new Date(text));

export const saveDiscountPlanSchema = z
  .object({
    name: z
      .string({ required_error: 'Please enter the plan name' })
      .trim()
      .min(1, 'Please enter the plan name')
      .max(64, 'must be at most 64 characters'),
    customerType: z.union([z.literal(1), z.literal(2), z.literal(3)], {
      errorMap: () => ({ message: 'must be 1 (personal), 2 (group) or 3 (group external card)' }),
    }),
    /** Percent of the electricity fee to pay: 95 = 95 %. */
    priceDiscount: percent('price discount'),
    /** Percent of the service fee to pay. */
    serviceFeeDiscount: percent('service fee discount'),
    validFrom: instant('start of the valid period'),
    validTo: instant('end of the valid period'),
    enabled: z.boolean().default(true),
    /** Detail rows: the cards the plan applies to. */
    details: z
      .array(z.object({ idTag: z.string().trim().min(1, 'Please enter the card number').max(20) }), {
        required_error: 'Please add at least one detail row',
      })
      .min(1, 'Please add at least one detail row')
      .max(1000, 'at most 1000 detail rows'),
  })
  .superRefine((dto, ctx) => {
    if (dto.validTo <= dto.validFrom)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['validTo'],
        message: 'must be after the start of the valid period',
      });
    const seen = new Set<string>();
    dto.details.forEach((d, i) => {
      if (seen.has(d.idTag))
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['details', i, 'idTag'], message: 'listed twice' });
      seen.add(d.idTag);
    });
  });
export type SaveDiscountPlanDto = z.output<typeof saveDiscountPlanSchema>;

// Answers

export const discountPlanViewSchema = apiSchemas.named(
  'DiscountPlanView',
  view({
    id: z.number().int(),
    name: z.string(),
    customerType: z
      .union([z.literal(1), z.literal(2), z.literal(3)])
      .describe('1 personal, 2 group, 3 group external card'),
    priceDiscount: z.number().int().describe('Whole percentage of the electricity fee to pay (95 = 5 % off)'),
    serviceFeeDiscount: z.number().int(),
    validFrom: z.string(),
    validTo: z.string(),
    enabled: z.boolean(),
    updatedAt: z.string(),
    details: z.array(view({ idTag: z.string() })),
  }),
);
export type DiscountPlanView = z.infer<typeof discountPlanViewSchema>;
export const discountPlanPageSchema = gridPageOf('DiscountPlanPage', discountPlanViewSchema);
