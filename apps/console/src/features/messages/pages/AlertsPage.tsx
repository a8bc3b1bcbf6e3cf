import type { ProColumns } from '@ant-design/pro-components';
import type { MsgAlertDto } from '@voltdepot/shared-contracts';
import { Card, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GridPage } from '../../../app/grid/GridPage';
import { msgApi } from '../api/msgApi';
import { AlertDialog } from '../components/AlertDialog';
import { msgGridProps, msgRowActions, useMsgGrid } from '../components/msgGrid';
import { deliveryColumns } from '../components/ruleColumns';
import { useDictionaries, type MsgDictCode } from '../hooks/useDictionaries';
import { useGroupList, useTemplateList } from '../hooks/useMsgLists';
import { MSG_PERMISSIONS } from '../permissions';

const DICTS: MsgDictCode[] = [
  'alert_group',
  'job_type',
  'comparison',
  'msg_status',
  'event_channel',
  'alert_level',
  'frequency',
];
const P = MSG_PERMISSIONS.alerts;

const STATUS_COLORS: Record<string, string> = {
  UP: 'success',
  SUCCESS: 'success',
  DOWN: 'error',
  EXCEPTION: 'error',
};

/** Alerts: thresholds (GE/LE) on Kafka, Redis, HTTP, connection and node measurements. */
export function AlertsPage() {
  const { t } = useTranslation();
  const grid = useMsgGrid<MsgAlertDto>('alerts', msgApi.alerts.page);
  const dict = useDictionaries(DICTS);
  const templates = useTemplateList();
  const groups = useGroupList();
  const [dialog, setDialog] = useState<{ row?: MsgAlertDto } | null>(null);

  const columns = useMemo<ProColumns<MsgAlertDto>[]>(
    () => [
      { title: t('messages.alerts.name'), dataIndex: 'name', width: 160 },
      {
        title: t('messages.alerts.alertGroup'),
        dataIndex: 'alertGroup',
        valueType: 'select',
        width: 120,
        fieldProps: { options: dict.options.alert_group },
        render: (_dom, row) => dict.label('alert_group', row.alertGroup),
      },
      {
        title: t('messages.alerts.jobType'),
        dataIndex: 'jobType',
        valueType: 'select',
        width: 120,
        fieldProps: { options: dict.options.job_type },
        render: (_dom, row) => dict.label('job_type', row.jobType),
      },
      { title: t('messages.alerts.target'), dataIndex: 'target', search: false, width: 200, ellipsis: true },
      {
        title: t('messages.alerts.rule'),
        key: 'rule',
        search: false,
        width: 110,
        render: (_dom, row) => `${dict.label('comparison', row.expression)} ${row.threshold}`,
      },
      ...deliveryColumns<MsgAlertDto>(
        t,
        dict,
        (templates.data ?? []).map((tpl) => ({ id: tpl.id, name: tpl.templateName })),
        groups.data ?? [],
      ),
      {
        title: t('messages.common.status'),
        dataIndex: 'status',
        search: false,
        width: 110,
        render: (_dom, row) => (
          <Tag color={STATUS_COLORS[row.status] ?? 'default'}>{dict.label('msg_status', row.status)}</Tag>
        ),
      },
      {
        title: t('messages.alerts.lastValue'),
        dataIndex: 'lastValue',
        search: false,
        width: 110,
        render: (_dom, row) => (row.lastValue === null ? '-' : row.lastValue),
      },
      { title: t('messages.alerts.lastCheckedAt'), dataIndex: 'lastCheckedAt', search: false, width: 170 },
    ],
    [t, dict, templates.data, groups.data],
  );

  return (
    <Card title={t('messages.alerts.title')} data-testid="msg-alerts-page">
      <GridPage<MsgAlertDto>
        grid={grid}
        {...msgGridProps({ permission: P.add, onClick: () => setDialog({}) })}
        columns={columns}
        rowActions={msgRowActions<MsgAlertDto>({
          permissions: P,
          edit: (row) => setDialog({ row }),
          remove: (row) => msgApi.alerts.remove(row.id),
          confirmDelete: t('messages.alerts.confirmDelete'),
        })}
        scrollX={2100}
      />
      {dialog && (
        <AlertDialog
          alert={dialog.row}
          options={dict.options}
          onClose={() => setDialog(null)}
          onSaved={grid.reload}
        />
      )}
    </Card>
  );
}
