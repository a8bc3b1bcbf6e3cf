import { useQuery } from '@tanstack/react-query';
import { apiPath, type ApiResponse } from '@voltdepot/console-api-client';
import { GUN_STATUSES, VEHICLE_CHARGE_STATUSES } from '@voltdepot/shared-contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../../request';
import { monitorQueryKeys } from '../queryKeys';

/** The dictionaries of business-areas §4 these screens filter by, with the values the contracts know. */
const DICTIONARIES = {
  gun_status: { values: GUN_STATUSES, labels: 'monitoring.gunStatus' },
  vehicle_charge_status: { values: VEHICLE_CHARGE_STATUSES, labels: 'monitoring.vehicleStatus' },
} as const;

export type StatusDictionary = keyof typeof DICTIONARIES;

/**
 * Options of a status filter from the dictionaries API (GET /api/dict/type/{code}), in its order and
 * with the console's translation of each value; the contracts' values when the API does not answer.
 */
export function useStatusOptions(code: StatusDictionary): { value: string; label: string }[] {
  const { t } = useTranslation();
  const items = useQuery({
    queryKey: [...monitorQueryKeys.all, 'dict', code],
    queryFn: async ({ signal }) =>
      (await request.get<ApiResponse<'DictionariesController_items'>>(
        apiPath('DictionariesController_items', { code }),
        {
          signal,
        },
      )) ?? [],
    staleTime: 10 * 60_000,
  });
  return useMemo(() => {
    const { values, labels } = DICTIONARIES[code];
    const known = new Set<string>(values);
    const fromDictionary = (items.data ?? [])
      .map((item) => ({ value: item.value ?? item.code, name: item.name }))
      .filter((item) => known.has(item.value));
    const list = fromDictionary.length ? fromDictionary : values.map((value) => ({ value, name: value }));
    const translate = t as unknown as (key: string, options: { defaultValue: string }) => string;
    return list.map(({ value, name }) => ({
      value,
      label: translate(`${labels}.${value}`, { defaultValue: name }),
    }));
  }, [code, items.data, t]);
}
