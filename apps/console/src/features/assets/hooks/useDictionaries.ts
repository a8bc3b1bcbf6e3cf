import { useQueries } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { assetApi } from '../api/assetApi';
import { assetsQueryKeys } from '../queryKeys';

export type DictOption = { value: string | number; label: string };

/**
 * Options of dictionary types (GET /api/dict/type/{code}, business-areas §4 and §9), in the dictionary's
 * order. A label is the console's translation of the value when it has one, else the item's own name;
 * `numeric` types (station type, device status...) give number values, as the api stores them.
 */
export function useDictionaries(codes: readonly { code: string; numeric?: boolean }[]) {
  const { t } = useTranslation();
  const results = useQueries({
    queries: codes.map(({ code }) => ({
      queryKey: assetsQueryKeys.dictionary(code),
      queryFn: ({ signal }: { signal: AbortSignal }) => assetApi.dictionary(code, signal),
      staleTime: 10 * 60_000,
    })),
  });
  const data = results.map((r) => r.data);
  const options = useMemo(() => {
    const translate = t as unknown as (key: string, options: { defaultValue: string }) => string;
    const byCode: Record<string, DictOption[]> = {};
    codes.forEach(({ code, numeric }, index) => {
      const items = (data[index] ?? []).filter((item) => item.enabled !== false);
      byCode[code] = items.map((item) => {
        const value = item.value ?? item.code;
        return {
          value: numeric ? Number(value) : value,
          // i18next would read a dot in a value (ocpp1.6) as a nesting: such values keep their name.
          label: value.includes('.')
            ? item.name
            : translate(`assets.dict.${code}.${value}`, { defaultValue: item.name }),
        };
      });
    });
    return byCode;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t, codes, ...data]);
  const label = useCallback(
    (code: string, value: unknown) => {
      if (value === null || value === undefined || value === '') return '';
      return options[code]?.find((o) => String(o.value) === String(value))?.label ?? String(value);
    },
    [options],
  );
  return { options, label };
}
