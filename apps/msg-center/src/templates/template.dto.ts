import { jsonBoundsProblem } from '@voltdepot/server-core';
import { TemplateTypes } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { entityId, optionalText } from '../shared/grid';

/** The editor's image limit applies to the whole content: 10 MB. */
export const MAX_CONTENT_BYTES = 10_485_760;

const CONFIG_ID = 'Please select configuration ID';
const TEMPLATE_NAME = 'Please enter template name';
const TYPE = 'Please select extension content';

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** Room for 100 of the editor's pairs (each an item with two keys), or 300 keys of a map. */
const PARAMETER_BOUNDS = { maxDepth: 2, maxKeys: 300, maxBytes: 65_536 };
const isScalar = (v: unknown) =>
  v === undefined || v === null || ['string', 'number', 'boolean'].includes(typeof v);

/**
 * Key-value pairs as a map or as the editor's list of pairs; keys non-empty and unique, values text
 * (a number or a boolean is taken as its text; a nested value is refused rather than stored as
 * "[object Object]").
 */
export const parametersSchema = z
  .union([z.array(z.object({ key: z.unknown(), value: z.unknown() })), z.record(z.unknown())])
  .optional()
  .superRefine((value, ctx) => {
    if (value === undefined) return;
    const bounds = jsonBoundsProblem(value, PARAMETER_BOUNDS);
    if (bounds !== undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: bounds });
      return;
    }
    const list = Array.isArray(value);
    const pairs = list ? value : Object.entries(value).map(([key, v]) => ({ key, value: v }));
    const seen = new Set<string>();
    pairs.forEach((pair, i) => {
      const key = typeof pair.key === 'string' ? pair.key.trim() : '';
      if (key === '')
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i], message: 'key cannot be empty' });
      else if (seen.has(key))
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i], message: 'key cannot be duplicated' });
      seen.add(key);
      if (!isScalar(pair.value))
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: list ? [i, 'value'] : [key],
          message: 'must be text, a number or a boolean',
        });
    });
  })
  .transform((value): Record<string, string> => {
    if (value === undefined) return {};
    const pairs = Array.isArray(value)
      ? value.map((p) => [String(p.key).trim(), p.value] as const)
      : Object.entries(value).map(([k, v]) => [k.trim(), v] as const);
    return Object.fromEntries(pairs.map(([k, v]) => [k, v === undefined || v === null ? '' : String(v)]));
  });

export const templateBodySchema = z.object({
  configId: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ required_error: CONFIG_ID, invalid_type_error: CONFIG_ID })
      .int(CONFIG_ID)
      .positive(CONFIG_ID)
      .max(Number.MAX_SAFE_INTEGER, CONFIG_ID),
  ),
  templateName: z.preprocess(
    blankToUndefined,
    z
      .string({ required_error: TEMPLATE_NAME, invalid_type_error: TEMPLATE_NAME })
      .trim()
      .min(1, TEMPLATE_NAME)
      .max(200),
  ),
  type: z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : blankToUndefined(v)),
    z.enum(TemplateTypes, { errorMap: () => ({ message: TYPE }) }),
  ),
  content: z
    .string()
    .nullish()
    .refine(
      (v) => v == null || Buffer.byteLength(v, 'utf8') <= MAX_CONTENT_BYTES,
      'Please do not exceed 10MB',
    ),
  msgKey: z.string().trim().max(200).nullish(),
  parameters: parametersSchema,
  editable: z.boolean().optional(),
});
export type TemplateBody = z.infer<typeof templateBodySchema>;

export const templateQuerySchema = z.object({
  configName: optionalText,
  templateName: optionalText,
  type: optionalText,
  configId: entityId.optional(),
});
export type TemplateQuery = z.infer<typeof templateQuerySchema>;
