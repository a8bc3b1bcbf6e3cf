import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { GuardedButton, Permission, usePermission } from '@voltdepot/console-ui';
import type { RoleView } from '@voltdepot/console-api-client';
import { App, Space, Tag, Typography } from 'antd';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { useGridRequest } from '../../../app/grid/useGridRequest';
import { adminApi } from '../api/adminApi';
import { adminGridProps } from '../components/adminGridProps';
import { DataAuthDialog, MenuAuthDialog, RoleFormDialog } from '../components/RoleDialogs';
import { ADMIN_PERMISSIONS as P } from '../permissions';
import { adminQueryKeys } from '../queryKeys';

/** Roles: CRUD, menu authorisation (resources and buttons) and data authorisation (organisation subtrees). */
export function RolesPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const actionRef = useRef<ActionType>();
  const [editing, setEditing] = useState<RoleView | null | undefined>(undefined);
  const [menuAuth, setMenuAuth] = useState<RoleView | null>(null);
  const [dataAuth, setDataAuth] = useState<RoleView | null>(null);
  const can = {
    edit: usePermission(P.role.edit),
    delete: usePermission(P.role.delete),
    menuAuth: usePermission(P.role.menuAuth),
    dataAuth: usePermission(P.role.dataAuth),
  };
  const request = useGridRequest<RoleView>({
    queryKey: (page, size, filters) => adminQueryKeys.rolePage({ page, size, ...filters }),
    fetch: adminApi.rolePage,
  });
  const reload = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: adminQueryKeys.roles() });
    void actionRef.current?.reload();
  }, [queryClient]);

  const columns: ProColumns<RoleView>[] = [
    { title: t('admin.common.code'), dataIndex: 'code', width: 160 },
    { title: t('admin.common.name'), dataIndex: 'name', width: 160 },
    { title: t('admin.common.description'), dataIndex: 'description', search: false, ellipsis: true },
    {
      title: t('admin.role.builtin'),
      dataIndex: 'builtin',
      width: 100,
      search: false,
      render: (_dom, row) =>
        row.builtin ? <Tag color="gold">{t('admin.common.yes')}</Tag> : t('admin.common.no'),
    },
    {
      title: t('admin.common.updatedAt'),
      dataIndex: 'updatedAt',
      width: 170,
      search: false,
      render: (_dom, row) => formatDateTime(row.updatedAt),
    },
    {
      title: t('admin.common.actions'),
      key: 'actions',
      search: false,
      fixed: 'right',
      width: 280,
      render: (_dom, row) => (
        <Space size="small" wrap>
          {can.edit && (
            <Typography.Link onClick={() => setEditing(row)} data-testid={`role-edit-${row.code}`}>
              {t('admin.common.edit')}
            </Typography.Link>
          )}
          {can.menuAuth && (
            <Typography.Link onClick={() => setMenuAuth(row)} data-testid={`role-menu-auth-${row.code}`}>
              {t('admin.role.menuAuth')}
            </Typography.Link>
          )}
          {can.dataAuth && (
            <Typography.Link onClick={() => setDataAuth(row)} data-testid={`role-data-auth-${row.code}`}>
              {t('admin.role.dataAuth')}
            </Typography.Link>
          )}
          {can.delete && !row.builtin && (
            <Typography.Link
              type="danger"
              data-testid={`role-delete-${row.code}`}
              onClick={() =>
                modal.confirm({
                  title: t('admin.common.prompt'),
                  content: t('admin.role.deleteConfirm', { name: row.name }),
                  okButtonProps: { danger: true },
                  onOk: async () => {
                    try {
                      await adminApi.deleteRole(row.id);
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
  ];

  return (
    <div data-testid="admin-roles">
      <ProTable<RoleView>
        headerTitle={t('admin.role.title')}
        {...adminGridProps<RoleView>(t)}
        actionRef={actionRef}
        columns={columns}
        request={request}
        scroll={{ x: 1100 }}
        toolBarRender={() => [
          <Permission key="add" code={P.role.add}>
            <GuardedButton
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing(null)}
              data-testid="role-add"
            >
              {t('admin.common.add')}
            </GuardedButton>
          </Permission>,
        ]}
      />
      <RoleFormDialog
        open={editing !== undefined}
        role={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          reload();
        }}
      />
      <MenuAuthDialog role={menuAuth} onClose={() => setMenuAuth(null)} />
      <DataAuthDialog role={dataAuth} onClose={() => setDataAuth(null)} />
    </div>
  );
}
