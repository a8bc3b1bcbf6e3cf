import { PlusOutlined } from '@ant-design/icons';
import {
  ModalForm,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
  ProTable,
  type ActionType,
  type ProColumns,
} from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { GuardedButton, Permission, usePermission } from '@voltdepot/console-ui';
import { App, Space, Tag, Typography } from 'antd';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
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
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const actionRef = useRef<ActionType>();
  const canEdit = usePermission(P.config.edit);
  const [editing, setEditing] = useState<PlatformConfigRow | null | undefined>(undefined);
  const reload = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: adminQueryKeys.configs(category) });
    void actionRef.current?.reload();
  }, [queryClient, category]);

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
    {
      title: t('admin.common.updatedAt'),
      dataIndex: 'updatedAt',
      width: 170,
      render: (_d, row) => formatDateTime(row.updatedAt),
    },
    ...(canEdit
      ? [
          {
            title: t('admin.common.actions'),
            key: 'actions',
            width: 140,
            fixed: 'right' as const,
            render: (_d: unknown, row: PlatformConfigRow) => (
              <Space size="small">
                <Typography.Link onClick={() => setEditing(row)} data-testid={`config-edit-${row.configKey}`}>
                  {t('admin.common.edit')}
                </Typography.Link>
                {!row.builtin && (
                  <Typography.Link
                    type="danger"
                    onClick={() =>
                      modal.confirm({
                        title: t('admin.common.prompt'),
                        content: t('admin.parameter.deleteConfirm', { key: row.configKey }),
                        okButtonProps: { danger: true },
                        onOk: async () => {
                          try {
                            await adminApi.deleteConfig(row.configKey);
                            void message.success(t('admin.common.deleted'));
                            reload();
                          } catch {
                            // shown by the request layer
                          }
                        },
                      })
                    }
                  >
                    {t('admin.common.delete')}
                  </Typography.Link>
                )}
              </Space>
            ),
          },
        ]
      : []),
  ];

  const adding = editing === null;
  const switching = editing ? SWITCHES.has(editing.configKey) : false;

  return (
    <div data-testid={testId}>
      <ProTable<PlatformConfigRow>
        headerTitle={title}
        rowKey="configKey"
        actionRef={actionRef}
        columns={columns}
        search={false}
        options={false}
        cardBordered
        scroll={{ x: 1100 }}
        pagination={{
          pageSize: 10,
          showSizeChanger: false,
          showTotal: (total) => t('common.total', { total }),
        }}
        request={async (params) => {
          const page = params.current ?? 1;
          const size = params.pageSize ?? 10;
          try {
            const data = await queryClient.fetchQuery({
              queryKey: [...adminQueryKeys.configs(category), page, size],
              queryFn: ({ signal }) => adminApi.configPage(category, page, size, signal),
              staleTime: 0,
            });
            return { data: data.list, total: data.total, success: true };
          } catch {
            return { data: [], total: 0, success: false };
          }
        }}
        toolBarRender={() => [
          <Permission key="add" code={P.config.edit}>
            <GuardedButton
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing(null)}
              data-testid={`${testId}-add`}
            >
              {t('admin.common.add')}
            </GuardedButton>
          </Permission>,
        ]}
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
          reload();
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
