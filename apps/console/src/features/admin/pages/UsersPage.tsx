import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { GuardedButton, Permission, usePermission } from '@voltdepot/console-ui';
import type { UserView } from '@voltdepot/console-api-client';
import { App, Dropdown, Space, Switch, Tag, TreeSelect, Typography } from 'antd';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { useGridRequest } from '../../../app/grid/useGridRequest';
import { useLocale } from '../../../app/providers/useLocale';
import type { QueryParams } from '../../../request';
import { adminApi } from '../api/adminApi';
import { adminGridProps } from '../components/adminGridProps';
import { treeOptions } from '../components/formRules';
import { buttonTestId } from '../components/testIds';
import {
  CopyUserDialog,
  ResetPasswordDialog,
  UserFormDialog,
  UserRolesDialog,
} from '../components/UserDialogs';
import { UserImportDialog } from '../components/UserImportDialog';
import { useAllRoles, useOrganizationTree } from '../hooks/useAdminData';
import { ADMIN_PERMISSIONS as P } from '../permissions';
import { adminQueryKeys } from '../queryKeys';

/** Users: search, add, edit, enable/disable, roles, reset password, copy, delete; export and import. */
export function UsersPage() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const actionRef = useRef<ActionType>();
  const filters = useRef<QueryParams>({});
  const [editing, setEditing] = useState<UserView | null | undefined>(undefined);
  const [rolesOf, setRolesOf] = useState<UserView | null>(null);
  const [passwordOf, setPasswordOf] = useState<UserView | null>(null);
  const [copyOf, setCopyOf] = useState<UserView | null>(null);
  const [importing, setImporting] = useState(false);
  const organizations = useOrganizationTree();
  const roles = useAllRoles();
  const can = {
    edit: usePermission(P.user.edit),
    enable: usePermission(P.user.enable),
    role: usePermission(P.user.role),
    resetPassword: usePermission(P.user.resetPassword),
    copy: usePermission(P.user.copy),
    delete: usePermission(P.user.delete),
  };

  const request = useGridRequest<UserView>({
    queryKey: (page, size, f) => adminQueryKeys.userPage({ page, size, ...f }),
    fetch: adminApi.userPage,
    onFilters: (f) => (filters.current = f),
  });
  const reload = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: adminQueryKeys.users() });
    void actionRef.current?.reload();
  }, [queryClient]);

  const roleNames = useMemo(() => new Map((roles.data ?? []).map((r) => [r.id, r.name])), [roles.data]);

  const confirm = (title: string, content: string, action: () => Promise<unknown>, done: string) =>
    modal.confirm({
      title,
      content,
      okButtonProps: buttonTestId('confirm-ok', { danger: true }),
      onOk: async () => {
        try {
          await action();
          void message.success(done);
          reload();
        } catch {
          // the request layer showed the server's message
        }
      },
    });

  const columns: ProColumns<UserView>[] = [
    { title: t('admin.user.username'), dataIndex: 'username', width: 140, copyable: true },
    { title: t('admin.user.realName'), dataIndex: 'realName', width: 120 },
    {
      title: t('admin.user.organization'),
      dataIndex: 'organizationId',
      width: 160,
      render: (_dom, row) => row.organizationName,
      renderFormItem: () => (
        <TreeSelect
          allowClear
          treeDefaultExpandAll
          placeholder={t('admin.common.all')}
          treeData={treeOptions(organizations.data ?? [], (o) => o.name)}
        />
      ),
    },
    {
      title: t('admin.user.roles'),
      key: 'roles',
      search: false,
      width: 200,
      render: (_dom, row) =>
        row.roleIds.length === 0 ? (
          '-'
        ) : (
          <Space size={[0, 4]} wrap>
            {row.roleIds.map((id) => (
              <Tag key={id}>{roleNames.get(id) ?? `#${id}`}</Tag>
            ))}
          </Space>
        ),
    },
    { title: t('admin.user.phone'), dataIndex: 'phone', width: 130, search: false },
    { title: t('admin.user.email'), dataIndex: 'email', width: 180, search: false, ellipsis: true },
    {
      title: t('admin.common.status'),
      dataIndex: 'enabled',
      width: 100,
      valueType: 'select',
      valueEnum: {
        true: { text: t('admin.common.enabled'), status: 'Success' },
        false: { text: t('admin.common.disabled'), status: 'Default' },
      },
      render: (_dom, row) =>
        can.enable ? (
          <Switch
            size="small"
            checked={row.enabled}
            data-testid={`user-enabled-${row.username}`}
            onChange={async (enabled) => {
              try {
                await adminApi.setUserEnabled(row.id, enabled);
                void message.success(enabled ? t('admin.user.enabledNow') : t('admin.user.disabledNow'));
                reload();
              } catch {
                // shown by the request layer
              }
            }}
          />
        ) : (
          <Tag color={row.enabled ? 'success' : 'default'}>
            {row.enabled ? t('admin.common.enabled') : t('admin.common.disabled')}
          </Tag>
        ),
    },
    {
      title: t('admin.user.totp'),
      dataIndex: 'totpEnabled',
      width: 110,
      search: false,
      render: (_dom, row) => (
        <Tag color={row.totpEnabled ? 'success' : 'default'} data-testid={`user-totp-${row.username}`}>
          {row.totpEnabled ? t('admin.user.totpOn') : t('admin.user.totpOff')}
        </Tag>
      ),
    },
    {
      title: t('admin.common.createdAt'),
      dataIndex: 'createdAt',
      width: 170,
      search: false,
      render: (_dom, row) => formatDateTime(row.createdAt),
    },
    {
      title: t('admin.common.actions'),
      key: 'actions',
      search: false,
      fixed: 'right',
      width: 200,
      render: (_dom, row) => {
        const more = [
          can.role && { key: 'roles', label: t('admin.user.assignRoles') },
          can.resetPassword && { key: 'password', label: t('admin.user.resetPassword') },
          // Only a user who has a second factor has one to reset.
          can.resetPassword && row.totpEnabled && { key: 'totp', label: t('admin.user.resetTotp') },
          can.copy && { key: 'copy', label: t('admin.user.copy') },
          can.delete && { key: 'delete', label: t('admin.common.delete'), danger: true },
        ].filter((item): item is { key: string; label: string; danger?: boolean } => Boolean(item));
        return (
          <Space size="small">
            {can.edit && (
              <Typography.Link onClick={() => setEditing(row)} data-testid={`user-edit-${row.username}`}>
                {t('admin.common.edit')}
              </Typography.Link>
            )}
            {can.role && (
              <Typography.Link onClick={() => setRolesOf(row)} data-testid={`user-roles-${row.username}`}>
                {t('admin.user.roles')}
              </Typography.Link>
            )}
            {more.length > 0 && (
              <Dropdown
                trigger={['click']}
                menu={{
                  items: more,
                  onClick: ({ key }) => {
                    if (key === 'roles') setRolesOf(row);
                    if (key === 'password') setPasswordOf(row);
                    if (key === 'copy') setCopyOf(row);
                    if (key === 'totp')
                      confirm(
                        t('admin.user.resetTotp'),
                        t('admin.user.resetTotpConfirm', { name: row.realName }),
                        () => adminApi.resetTotp(row.id),
                        t('admin.user.totpReset'),
                      );
                    if (key === 'delete')
                      confirm(
                        t('admin.common.prompt'),
                        t('admin.user.deleteConfirm', { name: row.realName }),
                        () => adminApi.deleteUser(row.id),
                        t('admin.common.deleted'),
                      );
                  },
                }}
              >
                <Typography.Link data-testid={`user-more-${row.username}`}>
                  {t('admin.common.more')}
                </Typography.Link>
              </Dropdown>
            )}
          </Space>
        );
      },
    },
  ];

  const exportUsers = async () => {
    const savedAs = await adminApi.exportUsers({ ...filters.current, lang: locale });
    if (savedAs) void message.success(t('admin.common.exported', { name: savedAs }));
  };

  return (
    <div data-testid="admin-users">
      <ProTable<UserView>
        headerTitle={t('admin.user.title')}
        {...adminGridProps<UserView>(t, 'user-query')}
        actionRef={actionRef}
        columns={columns}
        request={request}
        scroll={{ x: 1400 }}
        toolBarRender={() => [
          <Permission key="add" code={P.user.add}>
            <GuardedButton
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing(null)}
              data-testid="user-add"
            >
              {t('admin.common.add')}
            </GuardedButton>
          </Permission>,
          <Permission key="import" code={P.user.add}>
            <GuardedButton
              icon={<UploadOutlined />}
              onClick={() => setImporting(true)}
              data-testid="user-import"
            >
              {t('admin.import.button')}
            </GuardedButton>
          </Permission>,
          <Permission key="export" code={P.user.query}>
            <GuardedButton icon={<DownloadOutlined />} onClick={exportUsers} data-testid="user-export">
              {t('admin.common.export')}
            </GuardedButton>
          </Permission>,
        ]}
      />
      <UserFormDialog
        open={editing !== undefined}
        user={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          reload();
        }}
      />
      <UserRolesDialog
        user={rolesOf}
        onClose={() => setRolesOf(null)}
        onSaved={() => {
          setRolesOf(null);
          reload();
        }}
      />
      <ResetPasswordDialog user={passwordOf} onClose={() => setPasswordOf(null)} />
      <CopyUserDialog
        user={copyOf}
        onClose={() => setCopyOf(null)}
        onSaved={() => {
          setCopyOf(null);
          reload();
        }}
      />
      <UserImportDialog open={importing} onClose={() => setImporting(false)} onImported={reload} />
    </div>
  );
}
