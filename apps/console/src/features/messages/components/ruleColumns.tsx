import type { ProColumns } from '@ant-design/pro-components';
import type { MsgLevel } from '@voltdepot/shared-contracts';
import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import type { RuleDelivery } from '../api/msgApi';
import type { useDictionaries } from '../hooks/useDictionaries';
import { LEVEL_COLORS } from './ruleLabels';

type Dict = ReturnType<typeof useDictionaries>;
type Named = { id: number; name: string };

/** Columns event rules and alerts share: template, group, channels, level, frequency, enabled. */
export function deliveryColumns<T extends RuleDelivery>(
  t: TFunction,
  dict: Dict,
  templates: Named[],
  groups: Named[],
): ProColumns<T>[] {
  const templateNames = new Map(templates.map((tpl) => [tpl.id, tpl.name]));
  const groupNames = new Map(groups.map((group) => [group.id, group.name]));
  return [
    {
      title: t('messages.rule.template'),
      dataIndex: 'templateId',
      search: false,
      width: 150,
      render: (_dom, row) =>
        row.templateId ? (templateNames.get(row.templateId) ?? `#${row.templateId}`) : '-',
    },
    {
      title: t('messages.rule.group'),
      dataIndex: 'groupId',
      search: false,
      width: 130,
      render: (_dom, row) => (row.groupId ? (groupNames.get(row.groupId) ?? `#${row.groupId}`) : '-'),
    },
    {
      title: t('messages.rule.channels'),
      dataIndex: 'channels',
      search: false,
      width: 200,
      render: (_dom, row) =>
        row.channels.map((channel) => <Tag key={channel}>{dict.label('event_channel', channel)}</Tag>),
    },
    {
      title: t('messages.rule.level'),
      dataIndex: 'level',
      valueType: 'select',
      width: 110,
      fieldProps: { options: dict.options.alert_level },
      render: (_dom, row) => (
        <Tag color={LEVEL_COLORS[row.level as MsgLevel]}>{dict.label('alert_level', row.level)}</Tag>
      ),
    },
    {
      title: t('messages.rule.frequency'),
      dataIndex: 'frequency',
      search: false,
      width: 120,
      render: (_dom, row) =>
        row.frequency ? dict.label('frequency', row.frequency) : t('messages.rule.everyTime'),
    },
    {
      title: t('messages.rule.enabled'),
      dataIndex: 'enabled',
      search: false,
      width: 90,
      render: (_dom, row) =>
        row.enabled ? (
          <Tag color="success">{t('messages.rule.on')}</Tag>
        ) : (
          <Tag>{t('messages.rule.off')}</Tag>
        ),
    },
  ];
}
