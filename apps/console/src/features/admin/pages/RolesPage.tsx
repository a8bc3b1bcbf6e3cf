import type { ProColumns } from '@ant-design/pro-components';
import type { RoleView } from '@voltdepot/console-api-client';
import { Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeColumn } from '../../../app/grid/columns';
import { GridPage } from '../../../app/grid/GridPage';
import { usePagedGrid } from '../../../app/grid/useGrid';
import { adminApi } from '../api/adminApi';
import { DataAuthDialog, MenuAuthDialog, RoleFormDialog } from '../components/RoleDialogs';
import { ADMIN_PERMISSIONS as P } from '../permissions';
import { adminQueryKeys } from '../queryKeys';
import { useRoleText } from '../../../app/session/useRoleText';

/** Roles: CRUD, menu authorisation (resources and buttons) and data authorisation (organisation subtrees). */
export function RolesPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<RoleView | null | undefined>(undefined);
  const [menuAuth, setMenuAuth] = useState<RoleView | null>(null);
  const [dataAuth, setDataAuth] = useState<RoleView | null>(null);
  const grid = usePagedGrid<RoleView>({
    listKey: adminQueryKeys.roles(),
    pageKey: (page, size, filters) => adminQueryKeys.rolePage({ page, size, ...filters }),
    fetch: adminApi.rolePage,
  });

  const roleText = useRoleText();
  const columns: ProColumns<RoleView>[] = [
    { title: t('admin.common.code'), dataIndex: 'code', width: 160 },
    {
      title: t('admin.common.name'),
      dataIndex: 'name',
      width: 160,
      render: (_dom, row) => roleText.name(row),
    },
    {
      title: t('admin.common.description'),
      dataIndex: 'description',
      search: false,
      ellipsis: true,
      render: (_dom, row) => roleText.description(row) || '-',
    },
    {
      title: t('admin.role.builtin'),
      dataIndex: 'builtin',
      width: 100,
      search: false,
      render: (_dom, row) =>
        row.builtin ? <Tag color="gold">{t('admin.common.yes')}</Tag> : t('admin.common.no'),
    },
    dateTimeColumn<RoleView>(t('admin.common.updatedAt'), 'updatedAt'),
  ];

  return (
    <>
      <GridPage<RoleView>
        grid={grid}
        title={t('admin.role.title')}
        testId="admin-roles"
        texts="admin.common"
        columns={columns}
        scrollX={1100}
        toolbar={[
          { key: 'add', permission: P.role.add, testId: 'role-add', onClick: () => setEditing(null) },
        ]}
        rowActions={[
          {
            key: 'edit',
            permission: P.role.edit,
            testId: (row) => `role-edit-${row.code}`,
            onClick: (row) => setEditing(row),
          },
          {
            key: 'menuAuth',
            label: t('admin.role.menuAuth'),
            permission: P.role.menuAuth,
            testId: (row) => `role-menu-auth-${row.code}`,
            onClick: (row) => setMenuAuth(row),
          },
          {
            key: 'dataAuth',
            label: t('admin.role.dataAuth'),
            permission: P.role.dataAuth,
            testId: (row) => `role-data-auth-${row.code}`,
            onClick: (row) => setDataAuth(row),
          },
          {
            key: 'delete',
            permission: P.role.delete,
            visible: (row) => !row.builtin,
            testId: (row) => `role-delete-${row.code}`,
            confirm: (row) => t('admin.role.deleteConfirm', { name: row.name }),
            onClick: (row) => adminApi.deleteRole(row.id),
          },
        ]}
        actionsWidth={280}
      />
      <RoleFormDialog
        open={editing !== undefined}
        role={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          void grid.reload();
        }}
      />
      <MenuAuthDialog role={menuAuth} onClose={() => setMenuAuth(null)} />
      <DataAuthDialog role={dataAuth} onClose={() => setDataAuth(null)} />
    </>
  );
}
