import type { StageType } from '../pricing/price-plan';
import { type BillingDataScope, inScope } from './data-scope';

/** The prefix of `charging_order`'s columns of each band (`<prefix>_energy_wh`, `_electricity_fen`, `_service_fen`). */
export const BAND_COLUMNS: Readonly<Record<StageType, string>> = {
  sharp: 'sharp',
  peak: 'peak',
  normal: 'normal',
  valley: 'valley',
  deepValley: 'deep_valley',
};

/** Column values of raw query rows, null kept as null. */
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
export const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
export const isoOrNull = (v: unknown): string | null => (v ? new Date(v as Date).toISOString() : null);

/**
 * The WHERE clause of a grid's filters, always within the caller's data scope (`scopeColumn`, bound as
 * $1). `add` binds the next parameter and adds the condition written with its placeholder.
 */
export function scopedWhere(scopeColumn: string, scope: BillingDataScope) {
  const params: unknown[] = [scope.pathPatterns];
  const conditions = [inScope(scopeColumn, 1)];
  return {
    params,
    add(condition: (placeholder: string) => string, value: unknown): void {
      params.push(value);
      conditions.push(condition(`$${params.length}`));
    },
    /** A condition without a parameter. */
    require(condition: string): void {
      conditions.push(condition);
    },
    get sql(): string {
      return `WHERE ${conditions.join(' AND ')}`;
    },
  };
}
