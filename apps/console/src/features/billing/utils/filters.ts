import type { QueryParams } from '../../../request';

/** The filters an api understands from a search form's values: only `keys`, blanks left out, text trimmed. */
export function searchFilters(params: Record<string, unknown>, keys: readonly string[]): QueryParams {
  const filters: QueryParams = {};
  for (const key of keys) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    const text = typeof value === 'string' ? value.trim() : value;
    if (text === '') continue;
    if (typeof text === 'string' || typeof text === 'number') filters[key] = text;
  }
  return filters;
}
