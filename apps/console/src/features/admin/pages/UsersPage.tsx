import { UploadOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { usePermission } from '@voltdepot/console-ui';
import type { UserView } from '@voltdepot/console-api-client';
import { App, Space, Switch, Tag, TreeSelect } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeColumn } from '../../../app/grid/columns';
import { GridPage } from '../../../app/grid/GridPage';
import { usePagedGrid } from '../../../app/grid/useGrid';
import { adminApi } from '../api/adminApi';
import { treeOptions } from '../components/formRules';
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
import { useRoleText } from '../../../app/session/useRoleText';

/** Users: search, add, edit, enable/disable, roles, reset password, copy, delete; export and import. */
export function UsersPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [editing, setEditing] = useState<UserView | null | undefined>(undefined);
  const [rolesOf, setRolesOf] = useState<UserView | null>(null);
  const [passwordOf, setPasswordOf] = useState<UserView | null>(null);
  const [copyOf, setCopyOf] = useState<UserView | null>(null);
  const [importing, setImporting] = useState(false);
  const organizations = useOrganizationTree();
  const roles = useAllRoles();
  const canEnable = usePermission(P.user.enable);
  const grid = usePagedGrid<UserView>({
    listKey: adminQueryKeys.users(),
    pageKey: (page, size, filters) => adminQueryKeys.userPage({ page, size, ...filters }),
    fetch: adminApi.userPage,
  });
  const { reload } = grid;

  const roleText = useRoleText();
  const roleNames = useMemo(
    () => new Map((roles.data ?? []).map((r) => [r.id, roleText.name(r)])),
    [roles.data, roleText],
  );

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
        canEnable ? (
          <Switch
            size="small"
            checked={row.enabled}
            data-testid={`user-enabled-${row.username}`}
            onChange={async (enabled) => {
              try {
                await adminApi.setUserEnabled(row.id, enabled);
                void message.success(enabled ? t('admin.user.enabledNow') : t('admin.user.disabledNow'));
                void reload();
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
    dateTimeColumn<UserView>(t('admin.common.createdAt'), 'createdAt'),
  ];

  return (
    <>
      <GridPage<UserView>
        grid={grid}
        title={t('admin.user.title')}
        testId="admin-users"
        texts="admin.common"
        columns={columns}
        search={{ queryTestId: 'user-query' }}
        scrollX={1400}
        toolbar={[
          { key: 'add', permission: P.user.add, testId: 'user-add', onClick: () => setEditing(null) },
          {
            key: 'import',
            label: t('admin.import.button'),
            icon: <UploadOutlined />,
            permission: P.user.add,
            testId: 'user-import',
            onClick: () => setImporting(true),
          },
          {
            key: 'export',
            permission: P.user.query,
            testId: 'user-export',
            onClick: ({ filters, locale }) => adminApi.exportUsers({ ...filters, lang: locale }),
          },
        ]}
        rowActions={[
          {
            key: 'edit',
            permission: P.user.edit,
            testId: (row) => `user-edit-${row.username}`,
            onClick: (row) => setEditing(row),
          },
          {
            key: 'roles',
            label: t('admin.user.roles'),
            permission: P.user.role,
            testId: (row) => `user-roles-${row.username}`,
            onClick: (row) => setRolesOf(row),
          },
          {
            key: 'assignRoles',
            label: t('admin.user.assignRoles'),
            permission: P.user.role,
            menu: true,
            onClick: (row) => setRolesOf(row),
          },
          {
            key: 'password',
            label: t('admin.user.resetPassword'),
            permission: P.user.resetPassword,
            menu: true,
            onClick: (row) => setPasswordOf(row),
          },
          {
            // Only a user who has a second factor has one to reset.
            key: 'totp',
            label: t('admin.user.resetTotp'),
            permission: P.user.resetPassword,
            menu: true,
            visible: (row) => row.totpEnabled,
            confirm: (row) => t('admin.user.resetTotpConfirm', { name: row.realName }),
            onClick: (row) => adminApi.resetTotp(row.id),
            done: t('admin.user.totpReset'),
          },
          {
            key: 'copy',
            label: t('admin.user.copy'),
            permission: P.user.copy,
            menu: true,
            onClick: (row) => setCopyOf(row),
          },
          {
            key: 'delete',
            permission: P.user.delete,
            menu: true,
            confirm: (row) => t('admin.user.deleteConfirm', { name: row.realName }),
            onClick: (row) => adminApi.deleteUser(row.id),
          },
        ]}
        moreTestId={(row) => `user-more-${row.username}`}
        actionsWidth={200}
      />
      <UserFormDialog
        open={editing !== undefined}
        user={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          void reload();
        }}
      />
      <UserRolesDialog
        user={rolesOf}
        onClose={() => setRolesOf(null)}
        onSaved={() => {
          setRolesOf(null);
          void reload();
        }}
      />
      <ResetPasswordDialog user={passwordOf} onClose={() => setPasswordOf(null)} />
      <CopyUserDialog
        user={copyOf}
        onClose={() => setCopyOf(null)}
        onSaved={() => {
          setCopyOf(null);
          void reload();
        }}
      />
      <UserImportDialog open={importing} onClose={() => setImporting(false)} onImported={reload} />
    </>
  );
}
