import {
  ModalForm,
  ProFormDigit,
  ProFormRadio,
  ProFormSwitch,
  ProFormText,
  ProFormTreeSelect,
} from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import type { ResourceNode } from '@voltdepot/console-api-client';
import { App, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api/adminApi';
import { adminRules, treeOptions } from '../components/formRules';
import { TreeGrid } from '../components/TreeGrid';
import { useResourceLabel } from '../components/useResourceLabel';
import { useResourceTree } from '../hooks/useAdminData';
import { ADMIN_PERMISSIONS as P } from '../permissions';
import { adminQueryKeys } from '../queryKeys';

type Editing = { node: ResourceNode | null; parentId: number | null };
type ResourceForm = {
  parentId?: number;
  type: 'menu' | 'button';
  code: string;
  name: string;
  path?: string;
  icon?: string;
  sort?: number;
  visible: boolean;
};

const blank = (v: string | undefined) => (v && v.trim() !== '' ? v.trim() : null);

/** Resources: the menus and buttons (permission codes) roles are granted. Buttons hang under menus. */
export function ResourcesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const label = useResourceLabel();
  const tree = useResourceTree();
  const [editing, setEditing] = useState<Editing | null>(null);
  const reload = () => void queryClient.invalidateQueries({ queryKey: adminQueryKeys.resources() });
  const menusOnly = (nodes: readonly ResourceNode[]): ResourceNode[] =>
    nodes.filter((n) => n.type === 'menu').map((n) => ({ ...n, children: menusOnly(n.children) }));

  return (
    <>
      <TreeGrid<ResourceNode>
        title={t('admin.resource.title')}
        testId="admin-resources"
        data={tree.data}
        loading={tree.isFetching}
        searchText={(n) => `${label(n)} ${n.name} ${n.code} ${n.path ?? ''}`}
        permissions={{ add: P.resource.add, edit: P.resource.edit, delete: P.resource.delete }}
        onAddRoot={() => setEditing({ node: null, parentId: null })}
        onAddChild={(node) => setEditing({ node: null, parentId: node.id })}
        canAddChild={(node) => node.type === 'menu'}
        onEdit={(node) => setEditing({ node, parentId: node.parentId })}
        onDelete={(node) => adminApi.deleteResource(node.id)}
        deleteConfirm={(node) => t('admin.resource.deleteConfirm', { name: label(node) })}
        onReload={reload}
        rowTestId={(n) => `resource-row-${n.code}`}
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
      <ModalForm<ResourceForm>
        title={editing?.node ? t('admin.resource.edit') : t('admin.resource.add')}
        open={editing !== null}
        width={560}
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(null) }}
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
        onFinish={async (values) => {
          const body = {
            parentId: values.parentId ?? null,
            type: values.type,
            code: values.code.trim(),
            name: values.name.trim(),
            path: values.type === 'menu' ? blank(values.path) : null,
            icon: blank(values.icon),
            sort: values.sort ?? 0,
            visible: values.visible,
          };
          try {
            if (editing?.node) await adminApi.updateResource(editing.node.id, body);
            else await adminApi.createResource(body);
          } catch {
            return false;
          }
          void message.success(editing?.node ? t('admin.common.modified') : t('admin.common.added'));
          setEditing(null);
          reload();
          return true;
        }}
      >
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
        <ProFormText
          name="code"
          label={t('admin.resource.permissionCode')}
          rules={adminRules.code(t, t('admin.resource.permissionCode'))}
        />
        <ProFormText
          name="name"
          label={t('admin.common.name')}
          rules={adminRules.name(t, t('admin.common.name'))}
        />
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
        <ProFormDigit
          name="sort"
          label={t('admin.common.sort')}
          min={0}
          max={1_000_000}
          fieldProps={{ precision: 0 }}
        />
        <ProFormSwitch name="visible" label={t('admin.resource.visible')} />
      </ModalForm>
    </>
  );
}
