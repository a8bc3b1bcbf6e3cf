import { ModalForm, ProFormDigit, ProFormText, ProFormTreeSelect } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import type { OrganizationNode } from '@voltdepot/console-api-client';
import { App, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api/adminApi';
import { adminRules, treeOptions } from '../components/formRules';
import { TreeGrid } from '../components/TreeGrid';
import { useOrganizationTree } from '../hooks/useAdminData';
import { ADMIN_PERMISSIONS as P } from '../permissions';
import { adminQueryKeys } from '../queryKeys';

type Editing = { node: OrganizationNode | null; parentId: number | null };
type OrgForm = { parentId: number; code: string; name: string; sort?: number };

/** Organisations: a tree; every record belongs to one and lists are filtered by the caller's subtrees. */
export function OrganizationsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const tree = useOrganizationTree();
  const [editing, setEditing] = useState<Editing | null>(null);
  const reload = () => void queryClient.invalidateQueries({ queryKey: adminQueryKeys.organizations() });

  return (
    <>
      <TreeGrid<OrganizationNode>
        title={t('admin.org.title')}
        testId="admin-orgs"
        data={tree.data}
        loading={tree.isFetching}
        searchText={(n) => `${n.name} ${n.code}`}
        permissions={{ add: P.org.add, edit: P.org.edit, delete: P.org.delete }}
        onAddChild={(node) => setEditing({ node: null, parentId: node.id })}
        onEdit={(node) => setEditing({ node, parentId: node.parentId })}
        onDelete={(node) => adminApi.deleteOrganization(node.id)}
        deleteConfirm={(node) => t('admin.org.deleteConfirm', { name: node.name })}
        canDelete={(node) => node.parentId !== null}
        onReload={reload}
        rowTestId={(n) => `org-row-${n.code}`}
        columns={[
          { title: t('admin.common.name'), dataIndex: 'name', width: 280 },
          {
            title: t('admin.common.code'),
            dataIndex: 'code',
            width: 180,
            render: (_d, n) => <Typography.Text code>{n.code}</Typography.Text>,
          },
          { title: t('admin.common.sort'), dataIndex: 'sort', width: 100 },
        ]}
      />
      <ModalForm<OrgForm>
        title={editing?.node ? t('admin.org.edit') : t('admin.org.add')}
        open={editing !== null}
        width={520}
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(null) }}
        initialValues={
          editing?.node
            ? {
                parentId: editing.node.parentId ?? undefined,
                code: editing.node.code,
                name: editing.node.name,
                sort: editing.node.sort,
              }
            : { parentId: editing?.parentId ?? undefined, sort: 0 }
        }
        onFinish={async (values) => {
          const body = { code: values.code.trim(), name: values.name.trim(), sort: values.sort ?? 0 };
          try {
            if (editing?.node) {
              await adminApi.updateOrganization(editing.node.id, {
                ...body,
                ...(editing.node.parentId !== null ? { parentId: values.parentId } : {}),
              });
            } else {
              await adminApi.createOrganization({ ...body, parentId: values.parentId });
            }
          } catch {
            return false;
          }
          void message.success(editing?.node ? t('admin.common.modified') : t('admin.common.added'));
          setEditing(null);
          reload();
          return true;
        }}
      >
        {!(editing?.node && editing.node.parentId === null) && (
          <ProFormTreeSelect
            name="parentId"
            label={t('admin.org.parent')}
            rules={[{ required: true, message: t('admin.org.parentRequired') }]}
            fieldProps={{ treeData: treeOptions(tree.data ?? [], (o) => o.name), treeDefaultExpandAll: true }}
          />
        )}
        <ProFormText
          name="code"
          label={t('admin.common.code')}
          rules={adminRules.code(t, t('admin.common.code'))}
        />
        <ProFormText
          name="name"
          label={t('admin.common.name')}
          rules={adminRules.name(t, t('admin.common.name'))}
        />
        <ProFormDigit
          name="sort"
          label={t('admin.common.sort')}
          min={0}
          max={1_000_000}
          fieldProps={{ precision: 0 }}
        />
      </ModalForm>
    </>
  );
}
