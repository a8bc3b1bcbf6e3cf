import type { ProColumns } from '@ant-design/pro-components';
import type { MsgTemplateDto } from '@voltdepot/shared-contracts';
import { Card, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GridPage } from '../../../app/grid/GridPage';
import { msgApi } from '../api/msgApi';
import { htmlText } from '../components/htmlText';
import { msgGridProps, msgRowActions, useMsgGrid } from '../components/msgGrid';
import { TemplateDialog, type TemplateDialogMode } from '../components/TemplateDialog';
import { useDictionaries, type MsgDictCode } from '../hooks/useDictionaries';
import { useConfigList } from '../hooks/useMsgLists';
import { MSG_PERMISSIONS } from '../permissions';

const DICTS: MsgDictCode[] = ['message_type'];
const P = MSG_PERMISSIONS.template;

/** Message template list (spec §2): search, grid, and the add / modify / details dialog. */
export function TemplatePage() {
  const { t } = useTranslation();
  const grid = useMsgGrid<MsgTemplateDto>('template', msgApi.templates.page);
  const dict = useDictionaries(DICTS);
  // Spec §2: the config list is loaded when the screen is created, for the dialog.
  const configs = useConfigList();
  const [dialog, setDialog] = useState<{ mode: TemplateDialogMode; row?: MsgTemplateDto } | null>(null);

  const columns = useMemo<ProColumns<MsgTemplateDto>[]>(
    () => [
      { title: t('messages.template.configName'), dataIndex: 'configName', hideInTable: true },
      {
        title: t('messages.template.configName'),
        dataIndex: ['config', 'configName'],
        key: 'config',
        search: false,
        width: 160,
      },
      { title: t('messages.template.templateName'), dataIndex: 'templateName', width: 180 },
      {
        title: t('messages.template.type'),
        dataIndex: 'type',
        valueType: 'select',
        width: 100,
        fieldProps: { options: dict.options.message_type },
        render: (_dom, row) => dict.label('message_type', row.type),
      },
      {
        title: t('messages.template.content'),
        dataIndex: 'content',
        search: false,
        ellipsis: true,
        width: 240,
        render: (_dom, row) => htmlText(row.content) || t('messages.template.notAvailable'),
      },
      { title: t('messages.template.msgKey'), dataIndex: 'msgKey', search: false, width: 160 },
      {
        title: t('messages.template.parameters'),
        dataIndex: 'parameters',
        search: false,
        width: 200,
        render: (_dom, row) => (
          <Typography.Text code style={{ wordBreak: 'break-all' }}>
            {JSON.stringify(row.parameters ?? {})}
          </Typography.Text>
        ),
      },
      { title: t('messages.common.lastOperator'), dataIndex: 'username', search: false, width: 120 },
    ],
    [t, dict],
  );

  return (
    <Card title={t('messages.template.title')} data-testid="msg-template-page">
      <GridPage<MsgTemplateDto>
        grid={grid}
        {...msgGridProps({ permission: P.add, onClick: () => setDialog({ mode: 'add' }) })}
        columns={columns}
        rowActions={msgRowActions<MsgTemplateDto>({
          permissions: P,
          view: (row) => setDialog({ mode: 'details', row }),
          edit: (row) => setDialog({ mode: 'edit', row }),
          remove: (row) => msgApi.templates.remove(row.id),
          confirmDelete: t('messages.template.confirmDelete'),
          deletable: (row) => row.editable,
        })}
        actionsWidth={180}
        scrollX={1400}
      />
      {/* The dialog opens once the config list is in, so a stored config can be matched (spec §8). */}
      {dialog && !configs.isLoading && (
        <TemplateDialog
          mode={dialog.mode}
          template={dialog.row}
          configs={configs.data ?? []}
          typeOptions={dict.options.message_type}
          onClose={() => setDialog(null)}
          onSaved={grid.reload}
        />
      )}
    </Card>
  );
}
