import { useQuery } from '@tanstack/react-query';
import {
  AlertGroups,
  ChannelTypes,
  ComparisonExpressions,
  DingTalkTypes,
  EventChannels,
  Frequencies,
  GroupTypes,
  JobTypes,
  MsgLevels,
  MsgStatuses,
  SmsProviders,
  TemplateTypes,
  type DictTreeNode,
} from '@voltdepot/shared-contracts';
import type { TFunction } from 'i18next';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { msgApi } from '../api/msgApi';
import { msgQueryKeys } from '../queryKeys';

/**
 * The dictionaries of the message centre (seeded by the identity migration) and, for each, the values the
 * contracts know: used only when the dictionaries API does not answer, so a form never loses its options.
 */
export const MSG_DICTIONARIES = {
  message_type: TemplateTypes,
  channel_type: ChannelTypes,
  sms_provider: SmsProviders,
  ddtalk_type: DingTalkTypes,
  msg_status: MsgStatuses,
  alert_group: AlertGroups,
  event_channel: Object.values(EventChannels).map(String),
  alert_level: MsgLevels,
  group_type: GroupTypes,
  frequency: Frequencies,
  comparison: ComparisonExpressions,
  job_type: JobTypes,
} as const satisfies Record<string, readonly string[]>;

export type MsgDictCode = keyof typeof MSG_DICTIONARIES;
export type DictOption = { value: string; label: string };

/** The label of a dictionary value: the console's translation, else the dictionary's own name, else the value. */
export function dictLabel(t: TFunction, code: MsgDictCode, value: string, name?: string): string {
  const translate = t as unknown as (key: string, options: { defaultValue: string }) => string;
  return translate(`messages.dict.${code}.${value}`, { defaultValue: name ?? value });
}

/** Options of each dictionary type, in the dictionary's order. */
export function dictionaryOptions(
  t: TFunction,
  codes: readonly MsgDictCode[],
  tree: DictTreeNode[] | undefined,
): Record<MsgDictCode, DictOption[]> {
  const byCode = new Map((tree ?? []).map((node) => [node.code, node]));
  const result = {} as Record<MsgDictCode, DictOption[]>;
  for (const code of Object.keys(MSG_DICTIONARIES) as MsgDictCode[]) {
    const node = codes.includes(code) ? byCode.get(code) : undefined;
    const items = node?.children.length
      ? node.children.map((item) => ({ value: item.value ?? item.code, name: item.name }))
      : MSG_DICTIONARIES[code].map((value) => ({ value, name: undefined }));
    result[code] = items.map(({ value, name }) => ({ value, label: dictLabel(t, code, value, name) }));
  }
  return result;
}

/**
 * Options from the dictionaries API (GET ms/m1/msg/dictionaries/dict/tree?code=...), translated, with
 * `label(code, value)` for grid cells.
 */
export function useDictionaries(codes: readonly MsgDictCode[]) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: msgQueryKeys.dictionaries(codes),
    queryFn: ({ signal }) => msgApi.dictionaries(codes, signal),
    staleTime: 10 * 60_000,
  });
  const options = useMemo(() => dictionaryOptions(t, codes, query.data), [t, codes, query.data]);
  const label = useCallback(
    (code: MsgDictCode, value: string | number | null | undefined) => {
      if (value === null || value === undefined || value === '') return '';
      const text = String(value);
      return options[code].find((option) => option.value === text)?.label ?? text;
    },
    [options],
  );
  return { options, label, loading: query.isLoading };
}
