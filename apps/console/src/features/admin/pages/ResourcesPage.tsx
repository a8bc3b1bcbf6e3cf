import { ProFormRadio, ProFormSwitch, ProFormText, ProFormTreeSelect } from '@ant-design/pro-components';
import type { ResourceNode } from '@voltdepot/console-api-client';
import { Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GridPage } from '../../../app/grid/GridPage';
import { useRowsGrid } from '../../../app/grid/useGrid';
import { adminApi } from '../api/adminApi';
import { treeOptions } from '../components/formRules';
import { TreeNodeDialog, type TreeNodeFields } from '../components/TreeNodeDialog';
import { treeRowActions } from '../components/treeRowActions';
import { useResourceLabel } from '../components/useResourceLabel';
import { useResourceTree } from '../hooks/useAdminData';
import { ADMIN_PERMISSIONS as P } from '../permissions';
import { adminQueryKeys } from '../queryKeys';

type Editing = { node: ResourceNode | null; parentId: number | null };
type ResourceForm = TreeNodeFields & {
  parentId?: number;
  type: 'menu' | 'button';
  path?: string;
  icon?: string;
  visible: boolean;
};

const blank = (v: string | undefined) => (v && v.trim() !== '' ? v.trim() : null);

const resourceRowTestId = (n: ResourceNode) => `resource-row-${n.code}`;

/** Resources: the menus and buttons (permission codes) roles are granted. Buttons hang under menus. */
export function ResourcesPage() {
  const { t } = useTranslation();
  const label = useResourceLabel();
  const tree = useResourceTree();
  const grid = useRowsGrid(adminQueryKeys.resources(), tree);
  const [editing, setEditing] = useState<Editing | null>(null);
  const menusOnly = (nodes: readonly ResourceNode[]): ResourceNode[] =>
    nodes.filter((n) => n.type === 'menu').map((n) => ({ ...n, children: menusOnly(n.children) }));

  return (
    <>
      <GridPage<ResourceNode>
        grid={grid}
        title={t('admin.resource.title')}
        testId="admin-resources"
        texts="admin.common"
        tree={{
          searchText: (n) => `${label(n)} ${n.name} ${n.code} ${n.path ?? ''}`,
          searchTestId: 'admin-resources-search',
        }}
        toolbar={[
          {
            key: 'add',
            permission: P.resource.add,
            testId: 'admin-resources-add',
            onClick: () => setEditing({ node: null, parentId: null }),
          },
        ]}
        rowActions={treeRowActions<ResourceNode>(t, {
          rowTestId: resourceRowTestId,
          permissions: P.resource,
          addChild: (node) => setEditing({ node: null, parentId: node.id }),
          // Buttons hang under menus.
          canAddChild: (node) => node.type === 'menu',
          edit: (node) => setEditing({ node, parentId: node.parentId }),
          remove: (node) => adminApi.deleteResource(node.id),
          confirmDelete: (node) => t('admin.resource.deleteConfirm', { name: label(node) }),
        })}
        actionsWidth={220}
        scrollX={1000}
        table={{ onRow: (node) => ({ 'data-testid': resourceRowTestId(node) }) as object }}
        columns={[
          { title: t('admin.common.name'), key: 'name', width: 260, render: (_d, n) => label(n) },
          {
            title: t('admin.resource.type'),
            dataIndex: 'type',
            width: 90,
            render: (_d, n) =>
              n.type === 'button' ? (
                <Tag color="orange">{t('admin.resource.button')}</Tag>
              ) : (
                <Tag color="blue">{t('admin.resource.menu')}</Tag>
              ),
          },
          {
            title: t('admin.resource.permissionCode'),
            dataIndex: 'code',
            width: 240,
            render: (_d, n) => <Typography.Text code>{n.code}</Typography.Text>,
          },
          {
            title: t('admin.resource.path'),
            dataIndex: 'path',
            width: 240,
            render: (_d, n) => n.path ?? '-',
          },
          {
            title: t('admin.resource.visible'),
            dataIndex: 'visible',
            width: 90,
            render: (_d, n) => (n.visible ? t('admin.common.yes') : t('admin.common.no')),
          },
          { title: t('admin.common.sort'), dataIndex: 'sort', width: 80 },
        ]}
      />
      <TreeNodeDialog<ResourceForm>
        title={editing?.node ? t('admin.resource.edit') : t('admin.resource.add')}
        open={editing !== null}
        editing={Boolean(editing?.node)}
        width={560}
        codeLabel={t('admin.resource.permissionCode')}
        initialValues={
          editing?.node
            ? {
                parentId: editing.node.parentId ?? undefined,
                type: editing.node.type,
                code: editing.node.code,
                name: editing.node.name,
                path: editing.node.path ?? undefined,
                icon: editing.node.icon ?? undefined,
                sort: editing.node.sort,
                visible: editing.node.visible,
              }
            : { parentId: editing?.parentId ?? undefined, type: 'menu', sort: 0, visible: true }
        }
        save={(values) => {
          const body = {
            ...values,
            parentId: values.parentId ?? null,
            // Only a menu is a page.
            path: values.type === 'menu' ? blank(values.path) : null,
            icon: blank(values.icon),
          };
          return editing?.node
            ? adminApi.updateResource(editing.node.id, body)
            : adminApi.createResource(body);
        }}
        onClose={() => setEditing(null)}
        onSaved={() => void grid.reload()}
        before={
          <>
            <ProFormTreeSelect
              name="parentId"
              label={t('admin.resource.parent')}
              fieldProps={{
                allowClear: true,
                showSearch: true,
                treeNodeFilterProp: 'title',
                treeData: treeOptions(menusOnly(tree.data ?? []), (n) => `${label(n)} (${n.code})`),
              }}
            />
            <ProFormRadio.Group
              name="type"
              label={t('admin.resource.type')}
              options={[
                { value: 'menu', label: t('admin.resource.menu') },
                { value: 'button', label: t('admin.resource.button') },
              ]}
            />
          </>
        }
        after={<ProFormSwitch name="visible" label={t('admin.resource.visible')} />}
      >
        <ProFormText
          name="path"
          label={t('admin.resource.path')}
          tooltip={t('admin.resource.pathHint')}
          rules={[
            { max: 255, message: t('admin.common.tooLong', { label: t('admin.resource.path'), max: 255 }) },
          ]}
        />
        <ProFormText
          name="icon"
          label={t('admin.resource.icon')}
          rules={[
            { max: 64, message: t('admin.common.tooLong', { label: t('admin.resource.icon'), max: 64 }) },
          ]}
        />
      </TreeNodeDialog>
    </>
  );
}
