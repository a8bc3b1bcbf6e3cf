import type { ProColumns } from '@ant-design/pro-components';
import type { MsgConfigDto } from '@voltdepot/shared-contracts';
import { Card, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GridPage } from '../../../app/grid/GridPage';
import { msgApi } from '../api/msgApi';
import { ConfigDialog } from '../components/ConfigDialog';
import { msgGridProps, msgRowActions, useMsgGrid } from '../components/msgGrid';
import { useDictionaries, type MsgDictCode } from '../hooks/useDictionaries';
import { MSG_PERMISSIONS } from '../permissions';
import { timeColumnTitle } from '../../../app/grid/columns';

const DICTS: MsgDictCode[] = ['channel_type', 'sms_provider', 'ddtalk_type', 'msg_status'];
const P = MSG_PERMISSIONS.config;

/** Channel configurations (SMTP, SMS accounts, robot webhooks) the templates send through. */
export function ConfigPage() {
  const { t } = useTranslation();
  const grid = useMsgGrid<MsgConfigDto>('config', msgApi.configs.page);
  const dict = useDictionaries(DICTS);
  const [dialog, setDialog] = useState<{ row?: MsgConfigDto } | null>(null);

  const columns = useMemo<ProColumns<MsgConfigDto>[]>(
    () => [
      { title: t('messages.config.configName'), dataIndex: 'configName', width: 180 },
      { title: t('messages.config.fullName'), dataIndex: 'fullName', width: 180 },
      {
        title: t('messages.config.channel'),
        dataIndex: 'channel',
        valueType: 'select',
        width: 120,
        fieldProps: { options: dict.options.channel_type },
        render: (_dom, row) => <Tag color="blue">{dict.label('channel_type', row.channel)}</Tag>,
      },
      {
        title: t('messages.config.provider'),
        dataIndex: 'provider',
        search: false,
        width: 120,
        render: (_dom, row) =>
          row.provider
            ? dict.label(row.channel === 'SMS' ? 'sms_provider' : 'ddtalk_type', row.provider)
            : '-',
      },
      {
        title: t('messages.common.status'),
        dataIndex: 'status',
        search: false,
        width: 110,
        render: (_dom, row) => dict.label('msg_status', row.status),
      },
      { title: t('messages.common.lastOperator'), dataIndex: 'username', search: false, width: 120 },
      {
        title: timeColumnTitle(t('messages.common.updateTime')),
        dataIndex: 'updateTime',
        search: false,
        width: 170,
      },
    ],
    [t, dict],
  );

  return (
    <Card title={t('messages.config.title')} data-testid="msg-config-page">
      <GridPage<MsgConfigDto>
        grid={grid}
        {...msgGridProps({ permission: P.add, onClick: () => setDialog({}) })}
        columns={columns}
        rowActions={msgRowActions<MsgConfigDto>({
          permissions: P,
          edit: (row) => setDialog({ row }),
          remove: (row) => msgApi.configs.remove(row.id),
          confirmDelete: t('messages.config.confirmDelete'),
        })}
      />
      {dialog && (
        <ConfigDialog
          config={dialog.row}
          options={dict.options}
          onClose={() => setDialog(null)}
          onSaved={grid.reload}
        />
      )}
    </Card>
  );
}
