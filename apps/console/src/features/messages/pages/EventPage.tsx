import type { ProColumns } from '@ant-design/pro-components';
import type { MsgEventRuleDto } from '@voltdepot/shared-contracts';
import { Card, Tabs, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GridPage } from '../../../app/grid/GridPage';
import { msgApi } from '../api/msgApi';
import { EventRuleDialog } from '../components/EventRuleDialog';
import { msgGridProps, msgRowActions, useMsgGrid } from '../components/msgGrid';
import { deliveryColumns } from '../components/ruleColumns';
import { RULE_EVENT_TYPES, type RuleEventType } from '../components/ruleLabels';
import { SendLogTable } from '../components/SendLogTable';
import { useDictionaries, type MsgDictCode } from '../hooks/useDictionaries';
import { useGroupList, useTemplateList } from '../hooks/useMsgLists';
import { MSG_PERMISSIONS } from '../permissions';
import { timeColumnTitle } from '../../../app/grid/columns';

const DICTS: MsgDictCode[] = ['event_channel', 'alert_level', 'frequency'];
const P = MSG_PERMISSIONS.event;

function EventRuleTable() {
  const { t } = useTranslation();
  const grid = useMsgGrid<MsgEventRuleDto>('event', msgApi.events.page);
  const dict = useDictionaries(DICTS);
  const templates = useTemplateList();
  const groups = useGroupList();
  const [dialog, setDialog] = useState<{ row?: MsgEventRuleDto } | null>(null);

  const columns = useMemo<ProColumns<MsgEventRuleDto>[]>(
    () => [
      { title: t('messages.event.name'), dataIndex: 'name', width: 170 },
      {
        title: t('messages.event.eventType'),
        dataIndex: 'eventType',
        valueType: 'select',
        width: 150,
        fieldProps: {
          options: Object.entries(RULE_EVENT_TYPES).map(([value, key]) => ({ value, label: t(key) })),
        },
        render: (_dom, row) =>
          row.eventType in RULE_EVENT_TYPES
            ? t(RULE_EVENT_TYPES[row.eventType as RuleEventType])
            : row.eventType,
      },
      {
        title: t('messages.event.condition'),
        dataIndex: 'condition',
        search: false,
        width: 180,
        render: (_dom, row) => <Typography.Text code>{JSON.stringify(row.condition ?? {})}</Typography.Text>,
      },
      ...deliveryColumns<MsgEventRuleDto>(
        t,
        dict,
        (templates.data ?? []).map((tpl) => ({ id: tpl.id, name: tpl.templateName })),
        groups.data ?? [],
      ),
      { title: t('messages.common.lastOperator'), dataIndex: 'username', search: false, width: 110 },
      {
        title: timeColumnTitle(t('messages.common.updateTime')),
        dataIndex: 'updateTime',
        search: false,
        width: 170,
      },
    ],
    [t, dict, templates.data, groups.data],
  );

  return (
    <>
      <GridPage<MsgEventRuleDto>
        grid={grid}
        {...msgGridProps({ permission: P.add, onClick: () => setDialog({}) })}
        columns={columns}
        rowActions={msgRowActions<MsgEventRuleDto>({
          permissions: P,
          edit: (row) => setDialog({ row }),
          remove: (row) => msgApi.events.remove(row.id),
          confirmDelete: t('messages.event.confirmDelete'),
        })}
        scrollX={1800}
      />
      {dialog && (
        <EventRuleDialog
          rule={dialog.row}
          options={dict.options}
          onClose={() => setDialog(null)}
          onSaved={grid.reload}
        />
      )}
    </>
  );
}

/** Event rules (which bus events become messages) and the send log of what was sent (spec §7). */
export function EventPage() {
  const { t } = useTranslation();
  return (
    <Card title={t('messages.event.title')} data-testid="msg-event-page">
      <Tabs
        destroyOnHidden
        items={[
          { key: 'rules', label: t('messages.event.rulesTab'), children: <EventRuleTable /> },
          { key: 'sendLog', label: t('messages.sendLog.title'), children: <SendLogTable /> },
        ]}
      />
    </Card>
  );
}
