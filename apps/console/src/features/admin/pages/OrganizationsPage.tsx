import { ProFormTreeSelect } from '@ant-design/pro-components';
import type { OrganizationNode } from '@voltdepot/console-api-client';
import { Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GridPage } from '../../../app/grid/GridPage';
import { useRowsGrid } from '../../../app/grid/useGrid';
import { adminApi } from '../api/adminApi';
import { treeOptions } from '../components/formRules';
import { TreeNodeDialog, type TreeNodeFields } from '../components/TreeNodeDialog';
import { treeRowActions } from '../components/treeRowActions';
import { useOrganizationTree } from '../hooks/useAdminData';
import { ADMIN_PERMISSIONS as P } from '../permissions';
import { adminQueryKeys } from '../queryKeys';

type Editing = { node: OrganizationNode | null; parentId: number | null };
type OrgForm = TreeNodeFields & { parentId: number };

const orgRowTestId = (n: OrganizationNode) => `org-row-${n.code}`;

/** Organisations: a tree; every record belongs to one and lists are filtered by the caller's subtrees. */
export function OrganizationsPage() {
  const { t } = useTranslation();
  const tree = useOrganizationTree();
  const grid = useRowsGrid(adminQueryKeys.organizations(), tree);
  const [editing, setEditing] = useState<Editing | null>(null);

  return (
    <>
      <GridPage<OrganizationNode>
        grid={grid}
        title={t('admin.org.title')}
        testId="admin-orgs"
        texts="admin.common"
        tree={{ searchText: (n) => `${n.name} ${n.code}`, searchTestId: 'admin-orgs-search' }}
        rowActions={treeRowActions<OrganizationNode>(t, {
          rowTestId: orgRowTestId,
          permissions: P.org,
          addChild: (node) => setEditing({ node: null, parentId: node.id }),
          edit: (node) => setEditing({ node, parentId: node.parentId }),
          remove: (node) => adminApi.deleteOrganization(node.id),
          confirmDelete: (node) => t('admin.org.deleteConfirm', { name: node.name }),
          // The root organisation stays.
          canDelete: (node) => node.parentId !== null,
        })}
        actionsWidth={220}
        scrollX={1000}
        table={{ onRow: (node) => ({ 'data-testid': orgRowTestId(node) }) as object }}
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
      <TreeNodeDialog<OrgForm>
        title={editing?.node ? t('admin.org.edit') : t('admin.org.add')}
        open={editing !== null}
        editing={Boolean(editing?.node)}
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
        save={({ parentId, ...body }) =>
          editing?.node
            ? adminApi.updateOrganization(editing.node.id, {
                ...body,
                // The root stays the root.
                ...(editing.node.parentId !== null ? { parentId } : {}),
              })
            : adminApi.createOrganization({ ...body, parentId })
        }
        onClose={() => setEditing(null)}
        onSaved={() => void grid.reload()}
        before={
          !(editing?.node && editing.node.parentId === null) && (
            <ProFormTreeSelect
              name="parentId"
              label={t('admin.org.parent')}
              rules={[{ required: true, message: t('admin.org.parentRequired') }]}
              fieldProps={{
                treeData: treeOptions(tree.data ?? [], (o) => o.name),
                treeDefaultExpandAll: true,
              }}
            />
          )
        }
      />
    </>
  );
}
