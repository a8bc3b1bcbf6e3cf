import { ProFormCheckbox, ProFormSelect, ProFormSwitch } from '@ant-design/pro-components';
import type { EventChannel, Frequency, MsgLevel } from '@voltdepot/shared-contracts';
import { useTranslation } from 'react-i18next';
import type { RuleDelivery } from '../api/msgApi';
import type { DictOption, MsgDictCode } from '../hooks/useDictionaries';
import { useGroupList, useTemplateList } from '../hooks/useMsgLists';

export type RuleDeliveryValues = {
  templateId?: number | null;
  groupId?: number | null;
  channels?: EventChannel[];
  level?: MsgLevel;
  frequency?: Frequency | null;
  enabled?: boolean;
};

export const DEFAULT_DELIVERY: RuleDeliveryValues = { channels: [], level: 'PROMPT', enabled: true };

/** Form values of a stored rule (empty selects as undefined so they show their placeholder). */
export function deliveryValuesOf(rule: RuleDelivery): RuleDeliveryValues {
  return {
    templateId: rule.templateId ?? undefined,
    groupId: rule.groupId ?? undefined,
    channels: rule.channels,
    level: rule.level,
    frequency: rule.frequency ?? undefined,
    enabled: rule.enabled,
  };
}

export function deliveryOf(values: RuleDeliveryValues): RuleDelivery {
  return {
    templateId: values.templateId ?? null,
    groupId: values.groupId ?? null,
    channels: [...(values.channels ?? [])].map(Number).sort() as EventChannel[],
    level: values.level ?? 'PROMPT',
    frequency: values.frequency ?? null,
    enabled: values.enabled ?? true,
  };
}

/**
 * What event rules and alerts share: template, receiver group, channels 0-4, level PROMPT...EMERGENCY and
 * the frequency throttle (at most one message per rule and target in the window; none sends every time).
 */
export function RuleDeliveryFields({ options }: { options: Record<MsgDictCode, DictOption[]> }) {
  const { t } = useTranslation();
  const templates = useTemplateList();
  const groups = useGroupList();
  return (
    <>
      <ProFormSelect
        name="templateId"
        label={t('messages.rule.template')}
        tooltip={t('messages.rule.templateHint')}
        options={(templates.data ?? []).map((tpl) => ({
          value: tpl.id,
          label: `${tpl.templateName} (${tpl.config.configName})`,
        }))}
        fieldProps={{
          allowClear: true,
          showSearch: true,
          optionFilterProp: 'label',
          loading: templates.isFetching,
        }}
      />
      <ProFormSelect
        name="groupId"
        label={t('messages.rule.group')}
        options={(groups.data ?? []).map((group) => ({ value: group.id, label: group.name }))}
        fieldProps={{
          allowClear: true,
          showSearch: true,
          optionFilterProp: 'label',
          loading: groups.isFetching,
        }}
      />
      <ProFormCheckbox.Group
        name="channels"
        label={t('messages.rule.channels')}
        options={options.event_channel.map((option) => ({
          value: Number(option.value),
          label: option.label,
        }))}
        rules={[{ required: true, type: 'array', min: 1, message: t('messages.rule.channelsRequired') }]}
      />
      <ProFormSelect
        name="level"
        label={t('messages.rule.level')}
        options={options.alert_level}
        rules={[{ required: true, message: t('messages.rule.levelRequired') }]}
      />
      <ProFormSelect
        name="frequency"
        label={t('messages.rule.frequency')}
        tooltip={t('messages.rule.frequencyHint')}
        options={options.frequency}
        fieldProps={{ allowClear: true }}
      />
      <ProFormSwitch name="enabled" label={t('messages.rule.enabled')} />
    </>
  );
}
