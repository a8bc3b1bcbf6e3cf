/**
 * The validation rules of business-areas §5 as the forms apply them, before anything is sent: required
 * fields "cannot be empty", the "1 to N characters" hints, station images (JPG or PNG, at most 2MB), at
 * least one label per category, at least one host for batch actions, and imports of xlsx or xls only.
 * The server checks again with the same messages (docs/assets.md); these give the answer at once.
 * Every function returns a problem (a message key of `assets.rules` and its values) or null.
 */

export type RuleKey =
  | 'required'
  | 'length'
  | 'exactLength'
  | 'range'
  | 'integer'
  | 'decimals'
  | 'vin'
  | 'phone'
  | 'creditCode'
  | 'areaCode'
  | 'chargePointId'
  | 'ocppPassword'
  | 'physicalNumber'
  | 'code'
  | 'externalAddress'
  | 'time'
  | 'endAfterStart'
  | 'ratedWithinMaximum'
  | 'minWithinMaximum'
  | 'imageType'
  | 'imageSize'
  | 'labelsPerCategory'
  | 'hostSelection'
  | 'importChoose'
  | 'importType';

export type Problem = { key: RuleKey; values?: Record<string, string | number> };

/** The translator a rule message goes through (i18next's t with a dynamic key). */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

export function messageOf(t: Translate, problem: Problem, label?: string): string {
  return t(`assets.rules.${problem.key}`, { label: label ?? '', ...problem.values });
}

export type TextRule = { min?: number; max: number; pattern?: { regex: RegExp; key: RuleKey } };

const isBlank = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

export function requiredProblem(value: unknown): Problem | null {
  return isBlank(value) ? { key: 'required' } : null;
}

/** A text value against its length hint and pattern (blank is the required rule's business). */
export function textProblem(value: unknown, rule: TextRule): Problem | null {
  if (isBlank(value)) return null;
  const text = String(value).trim();
  const min = rule.min ?? 1;
  if (text.length < min || text.length > rule.max) {
    return min === rule.max
      ? { key: 'exactLength', values: { max: rule.max } }
      : { key: 'length', values: { min, max: rule.max } };
  }
  if (rule.pattern && !rule.pattern.regex.test(text)) return { key: rule.pattern.key };
  return null;
}

/** A number within [min, max], whole unless `decimals` allows fractions. */
export function numberProblem(value: unknown, min: number, max: number, decimals = 0): Problem | null {
  if (isBlank(value)) return null;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) return { key: 'range', values: { min, max } };
  const scaled = n * 10 ** decimals;
  if (Math.abs(scaled - Math.round(scaled)) > 1e-6) {
    return decimals === 0 ? { key: 'integer' } : { key: 'decimals', values: { decimals } };
  }
  return null;
}

/** Patterns the api checks too (same messages). */
export const PATTERNS = {
  vin: { regex: /^[A-HJ-NPR-Z0-9]{17}$/i, key: 'vin' },
  phone: { regex: /^[0-9+\- ]+$/, key: 'phone' },
  creditCode: { regex: /^[0-9A-Z]{18}$/, key: 'creditCode' },
  areaCode: { regex: /^\d{6,12}$/, key: 'areaCode' },
  chargePointId: { regex: /^[A-Za-z0-9][A-Za-z0-9._:-]*$/, key: 'chargePointId' },
  ocppPassword: { regex: /^[\x21-\x7e]+$/, key: 'ocppPassword' },
  physicalNumber: { regex: /^[A-Za-z0-9]+$/, key: 'physicalNumber' },
  code: { regex: /^[A-Za-z0-9._:-]+$/, key: 'code' },
  externalAddress: { regex: /^(https?|rtsps?|rtmp):\/\/[^\s/$.?#][^\s]*$/i, key: 'externalAddress' },
  time: { regex: /^([01]\d|2[0-3]):[0-5]\d$/, key: 'time' },
  endTime: { regex: /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, key: 'time' },
} as const satisfies Record<string, { regex: RegExp; key: RuleKey }>;

/** A period's end after its start (HH:mm strings, 24:00 allowed at the end). */
export function endAfterStartProblem(start: unknown, end: unknown): Problem | null {
  if (typeof start !== 'string' || typeof end !== 'string') return null;
  if (!PATTERNS.time.regex.test(start) || !PATTERNS.endTime.regex.test(end)) return null;
  return end <= start ? { key: 'endAfterStart' } : null;
}

// --- Station images (§5, §9) -------------------------------------------------------------------

export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
export const IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;

export function imageProblem(file: { name: string; type: string; size: number }): Problem | null {
  const typed = (IMAGE_TYPES as readonly string[]).includes(file.type) && /\.(jpe?g|png)$/i.test(file.name);
  if (!typed) return { key: 'imageType' };
  if (file.size > IMAGE_MAX_BYTES) return { key: 'imageSize' };
  return null;
}

// --- Labels per category ---------------------------------------------------------------------

export const REQUIRED_LABEL_CATEGORIES = ['payment', 'nationalStandard', 'chargingType'] as const;

/** At least one label of every required category among the chosen ones. */
export function labelsProblem(
  byCategory: Partial<Record<string, readonly unknown[] | undefined>>,
): Problem | null {
  const missing = REQUIRED_LABEL_CATEGORIES.filter((c) => (byCategory[c]?.length ?? 0) === 0);
  return missing.length > 0 ? { key: 'labelsPerCategory' } : null;
}

// --- Batch actions and imports ----------------------------------------------------------------

export function selectionProblem(ids: readonly unknown[] | undefined): Problem | null {
  return (ids?.length ?? 0) === 0 ? { key: 'hostSelection' } : null;
}

export function importFileProblem(file: { name: string } | undefined | null): Problem | null {
  if (!file) return { key: 'importChoose' };
  return /\.(xlsx|xls)$/i.test(file.name) ? null : { key: 'importType' };
}
