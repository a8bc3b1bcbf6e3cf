import dayjs, { type Dayjs } from 'dayjs';
import { pickedInstantParam, pickerValueOf } from '../../../app/format/businessPicker';
import type { QueryParams } from '../../../request';
import {
  numberProblem,
  PATTERNS,
  requiredProblem,
  textProblem,
  type Problem,
  type TextRule,
} from '../rules/formRules';
import type { AssetKind, AssetRow } from '../types';

export type FieldKind =
  | 'text'
  | 'textarea'
  | 'password'
  | 'int'
  | 'decimal'
  | 'money'
  | 'bool'
  | 'dict'
  | 'choice'
  | 'ref'
  | 'time'
  | 'endTime'
  | 'date'
  | 'datetime';

/** A select of rows of another grid (a station, a host, a company...). */
export type RefSpec = {
  kind: AssetKind;
  /** The text of an option; `name` (or `number`) by default. */
  labelOf?: (row: AssetRow) => string;
  /** Filters from the form's other values; null means "choose those first" (no options). */
  params?: (values: Record<string, unknown>) => QueryParams | null;
  /** Fields whose change reloads the options (and clears this one). */
  dependsOn?: string[];
};

export type Choice = { value: string | number | boolean; label: string };

/**
 * One field of a basic-data grid: its form control, its rules (business-areas §5), its column and
 * filter. `label` is a key under `assets.field`.
 */
export type AssetField = {
  name: string;
  label: string;
  kind: FieldKind;
  required?: boolean;
  text?: TextRule;
  min?: number;
  max?: number;
  decimals?: number;
  /** Dictionary type code (kind 'dict'); `numeric` when the stored values are numbers. */
  dict?: string;
  numeric?: boolean;
  /** Kind 'choice': fixed options whose labels are keys under `assets`. */
  choices?: Choice[];
  /** Kind 'bool': what true and false are called, keys under `assets` (Yes and No by default). */
  boolLabels?: { on: string; off: string };
  ref?: RefSpec;
  /** The row field shown in the grid instead of the value (e.g. stationName for stationId). */
  view?: string;
  /** Column in the grid (default true). */
  grid?: boolean;
  /** Filter in the search form. */
  search?: boolean;
  /** Control in the add/edit form (default true); false for read-only values such as loads. */
  form?: boolean;
  /** Only when adding (e.g. the OCPP password is required then, optional later). */
  initial?: unknown;
  /** Form section (custom forms group fields by it). */
  section?: string;
  width?: number;
  /** Full-width in a two-column form. */
  wide?: boolean;
  /**
   * The value is an identifier shown as written (an alarm or stop code such as `PowerLoss`), not a label
   * waiting for a translation: marked `data-raw-text`, which the browser tests' raw-code check skips.
   */
  identifier?: boolean;
};

export const isFormField = (f: AssetField) => f.form !== false;

/** The two values of a yes/no field with their labels (keys under `assets`), true first. */
export function boolChoices(field: AssetField): Choice[] {
  const { on, off } = field.boolLabels ?? { on: 'common.yes', off: 'common.no' };
  return [
    { value: true, label: on },
    { value: false, label: off },
  ];
}

/** What the field's own rules say about a value (required first). */
export function fieldProblem(field: AssetField, value: unknown): Problem | null {
  if (field.required) {
    const missing = requiredProblem(value);
    if (missing) return missing;
  }
  switch (field.kind) {
    case 'text':
    case 'textarea':
    case 'password':
      return field.text ? textProblem(value, field.text) : null;
    case 'int':
      return numberProblem(value, field.min ?? 0, field.max ?? 2_147_483_647, 0);
    case 'decimal':
      return numberProblem(value, field.min ?? 0, field.max ?? 1_000_000, field.decimals ?? 2);
    case 'money':
      // Shown in yuan, stored in fen: two decimals.
      return numberProblem(value, field.min ?? 0, field.max ?? 1_000_000, 2);
    case 'time':
      return typeof value === 'string'
        ? textProblem(value, { max: 5, min: 5, pattern: PATTERNS.time })
        : null;
    case 'endTime':
      return textProblem(value, { max: 5, min: 5, pattern: PATTERNS.endTime });
    default:
      return null;
  }
}

/** A stored row as form values: money in yuan, times as HH:mm, date-times in business time, nulls left out. */
export function toFormValues(fields: AssetField[], row: AssetRow | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields.filter(isFormField)) {
    const value = row ? row[field.name] : field.initial;
    if (value === null || value === undefined) continue;
    if (field.kind === 'money') values[field.name] = Number(value) / 100;
    else if (field.kind === 'choice') values[field.name] = String(value);
    else if (field.kind === 'password') continue;
    // The picker holds business wall-clock time (app/format/businessPicker).
    else if (field.kind === 'datetime') values[field.name] = pickerValueOf(value as string);
    else values[field.name] = value;
  }
  return values;
}

function timeText(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string') return value;
  const d = dayjs(value as dayjs.ConfigType);
  return d.isValid() ? d.format('HH:mm') : null;
}

/**
 * Form values as the api's body: every form field present (PUT takes the whole record), blanks as null,
 * numbers as numbers, money in integer fen, times HH:mm, date-times ISO-8601 with the business offset.
 */
export function toBody(fields: AssetField[], values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields.filter(isFormField)) {
    const value = values[field.name];
    const blank = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
    if (field.kind === 'password') {
      if (!blank) body[field.name] = value;
      continue;
    }
    if (blank) {
      if (field.kind === 'bool') body[field.name] = false;
      else body[field.name] = null;
      continue;
    }
    switch (field.kind) {
      case 'int':
      case 'decimal':
        body[field.name] = Number(value);
        break;
      case 'money':
        body[field.name] = Math.round(Number(value) * 100);
        break;
      case 'dict':
        body[field.name] = field.numeric ? Number(value) : String(value);
        break;
      case 'choice':
        // Selects hold text; the choice knows the stored value (a boolean, a number...).
        body[field.name] = field.choices?.find((c) => String(c.value) === String(value))?.value ?? value;
        break;
      case 'time':
        body[field.name] = timeText(value);
        break;
      case 'date':
        body[field.name] = dayjs(value as dayjs.ConfigType).format('YYYY-MM-DD');
        break;
      case 'datetime':
        // Picked in business time; an instant with the business offset.
        body[field.name] = pickedInstantParam(value as Dayjs | string);
        break;
      case 'text':
      case 'textarea':
      case 'endTime':
        body[field.name] = String(value).trim();
        break;
      default:
        body[field.name] = value;
    }
  }
  return body;
}

/** The text of a reference option. */
export function refLabel(spec: RefSpec, row: AssetRow): string {
  if (spec.labelOf) return spec.labelOf(row);
  const name = row['name'] ?? row['number'] ?? row['id'];
  return String(name);
}

/** Money in fen shown in yuan with two decimals. */
export function yuan(fen: unknown): string {
  if (fen === null || fen === undefined || fen === '') return '';
  return (Number(fen) / 100).toFixed(2);
}
