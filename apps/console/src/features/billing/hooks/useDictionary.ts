import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { billingApi } from '../api/billingApi';
import { billingQueryKeys } from '../queryKeys';

/** The dictionary types the billing screens take options from (business-areas §4, §9). */
export type BillingDictionary =
  | 'charging_period_type'
  | 'client_type'
  | 'pay_status'
  | 'order_status'
  | 'approval_status'
  | 'reservation_status'
  | 'start_type';

export type DictOption = { value: string; label: string };

/**
 * Options of one dictionary type, in the dictionary's order, labelled with the console's translation
 * of each value (`billing.dict.<type>.<value>`) or else the item's own name.
 */
export function useDictionary(code: BillingDictionary) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: billingQueryKeys.dictionary(code),
    queryFn: ({ signal }) => billingApi.dictionary(code, signal),
    staleTime: 10 * 60_000,
  });
  const options = useMemo<DictOption[]>(() => {
    const translate = t as unknown as (key: string, options: { defaultValue: string }) => string;
    return (query.data ?? [])
      .filter((item) => item.enabled !== false)
      .map((item) => {
        const value = item.value ?? item.code;
        return { value, label: translate(`billing.dict.${code}.${value}`, { defaultValue: item.name }) };
      });
  }, [t, code, query.data]);
  const label = useCallback(
    (value: unknown): string => {
      if (value === null || value === undefined || value === '') return '';
      const translate = t as unknown as (key: string, options: { defaultValue: string }) => string;
      return (
        options.find((o) => o.value === String(value))?.label ??
        translate(`billing.dict.${code}.${String(value)}`, { defaultValue: String(value) })
      );
    },
    [options, t, code],
  );
  return { options, label };
}
