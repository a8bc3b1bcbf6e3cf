import {
  ModalForm,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
  type ProColumns,
} from '@ant-design/pro-components';
import { App, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeColumn } from '../../../app/grid/columns';
import { GridPage } from '../../../app/grid/GridPage';
import { usePagedGrid } from '../../../app/grid/useGrid';
import { adminApi, type PlatformConfigRow } from '../api/adminApi';
import { ADMIN_PERMISSIONS as P } from '../permissions';
import { adminQueryKeys } from '../queryKeys';

/** Parameters whose value is an on/off switch ('1'/'0'). */
const SWITCHES = new Set(['adminTotpRequired']);

type ConfigForm = { configKey: string; configValue: string; on?: boolean; description?: string };

/** The system parameters or the third-party settings: a key/value list administrators edit. */
export function ConfigTable({
  category,
  title,
  testId,
}: {
  category: 'system' | 'third_party';
  title: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [editing, setEditing] = useState<PlatformConfigRow | null | undefined>(undefined);
  const grid = usePagedGrid<PlatformConfigRow>({
    listKey: adminQueryKeys.configs(category),
    fetch: (page, size, _filters, signal) => adminApi.configPage(category, page, size, signal),
    searchForm: false,
  });

  const label = (key: string) => (key === 'adminTotpRequired' ? t('admin.parameter.adminTotpRequired') : key);

  const columns: ProColumns<PlatformConfigRow>[] = [
    {
      title: t('admin.parameter.key'),
      dataIndex: 'configKey',
      width: 240,
      render: (_d, row) => (
        <Space direction="vertical" size={0}>
          <Typography.Text code>{row.configKey}</Typography.Text>
          {label(row.configKey) !== row.configKey && (
            <Typography.Text type="secondary">{label(row.configKey)}</Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('admin.parameter.value'),
      dataIndex: 'configValue',
      ellipsis: true,
      render: (_d, row) =>
        SWITCHES.has(row.configKey) ? (
          <Tag
            color={row.configValue === '1' ? 'success' : 'default'}
            data-testid={`config-value-${row.configKey}`}
          >
            {row.configValue === '1' ? t('admin.common.on') : t('admin.common.off')}
          </Tag>
        ) : row.configValue === '' ? (
          <Typography.Text type="secondary">{t('admin.parameter.empty')}</Typography.Text>
        ) : (
          <span data-testid={`config-value-${row.configKey}`}>{row.configValue}</span>
        ),
    },
    { title: t('admin.common.description'), dataIndex: 'description', ellipsis: true, width: 280 },
    {
      title: t('admin.parameter.updatedBy'),
      dataIndex: 'updatedBy',
      width: 120,
      render: (_d, r) => r.updatedBy ?? '-',
    },
    dateTimeColumn<PlatformConfigRow>(t('admin.common.updatedAt'), 'updatedAt'),
  ];

  const adding = editing === null;
  const switching = editing ? SWITCHES.has(editing.configKey) : false;

  return (
    <div data-testid={testId}>
      <GridPage<PlatformConfigRow>
        grid={grid}
        title={title}
        texts="admin.common"
        rowKey="configKey"
        columns={columns}
        scrollX={1100}
        toolbar={[
          { key: 'add', permission: P.config.edit, testId: `${testId}-add`, onClick: () => setEditing(null) },
        ]}
        rowActions={[
          {
            key: 'edit',
            permission: P.config.edit,
            testId: (row) => `config-edit-${row.configKey}`,
            onClick: (row) => setEditing(row),
          },
          {
            key: 'delete',
            permission: P.config.edit,
            visible: (row) => !row.builtin,
            confirm: (row) => t('admin.parameter.deleteConfirm', { key: row.configKey }),
            onClick: (row) => adminApi.deleteConfig(row.configKey),
          },
        ]}
        actionsWidth={140}
      />
      <ModalForm<ConfigForm>
        title={adding ? t('admin.parameter.add') : t('admin.parameter.edit')}
        open={editing !== undefined}
        width={560}
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(undefined) }}
        initialValues={
          editing
            ? {
                configKey: editing.configKey,
                configValue: editing.configValue,
                on: editing.configValue === '1',
                description: editing.description ?? '',
              }
            : {}
        }
        onFinish={async (values) => {
          const configValue = switching ? (values.on ? '1' : '0') : (values.configValue ?? '');
          const description = values.description?.trim() ? values.description.trim() : null;
          try {
            if (editing) await adminApi.updateConfig(editing.configKey, { configValue, description });
            else
              await adminApi.createConfig({
                configKey: values.configKey.trim(),
                configValue,
                category,
                description,
              });
          } catch {
            return false;
          }
          void message.success(adding ? t('admin.common.added') : t('admin.common.modified'));
          setEditing(undefined);
          void grid.reload();
          return true;
        }}
      >
        <ProFormText
          name="configKey"
          label={t('admin.parameter.key')}
          disabled={!adding}
          rules={[
            {
              required: true,
              whitespace: true,
              message: t('admin.common.required', { label: t('admin.parameter.key') }),
            },
            { max: 64, message: t('admin.common.tooLong', { label: t('admin.parameter.key'), max: 64 }) },
            { pattern: /^[A-Za-z0-9_.-]+$/, message: t('admin.parameter.keyChars') },
          ]}
        />
        {switching ? (
          <ProFormSwitch
            name="on"
            label={label(editing!.configKey)}
            fieldProps={{ 'data-testid': `config-switch-${editing!.configKey}` } as object}
          />
        ) : (
          <ProFormTextArea
            name="configValue"
            label={t('admin.parameter.value')}
            rules={[
              {
                max: 4000,
                message: t('admin.common.tooLong', { label: t('admin.parameter.value'), max: 4000 }),
              },
            ]}
            fieldProps={{ autoSize: { minRows: 2, maxRows: 8 } }}
          />
        )}
        <ProFormTextArea
          name="description"
          label={t('admin.common.description')}
          rules={[
            {
              max: 255,
              message: t('admin.common.tooLong', { label: t('admin.common.description'), max: 255 }),
            },
          ]}
        />
      </ModalForm>
    </div>
  );
}
