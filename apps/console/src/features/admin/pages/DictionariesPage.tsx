import { ModalForm, ProFormDigit, ProFormSwitch, ProFormText } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { DictNode } from '@voltdepot/console-api-client';
import { App, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api/adminApi';
import { adminRules } from '../components/formRules';
import { TreeGrid } from '../components/TreeGrid';
import { ADMIN_PERMISSIONS as P } from '../permissions';
import { adminQueryKeys } from '../queryKeys';

/** node null: add (a type when typeId is null, else an item of that type). */
type Editing = { node: DictNode | null; typeId: number | null };
type DictForm = { code: string; name: string; value?: string; sort?: number; enabled: boolean };

/** Dictionaries: types and their items; every screen takes the options of its enumerations here. */
export function DictionariesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const tree = useQuery({
    queryKey: adminQueryKeys.dictionaries(),
    queryFn: ({ signal }) => adminApi.dictTree(signal),
  });
  const [editing, setEditing] = useState<Editing | null>(null);
  const reload = () => void queryClient.invalidateQueries({ queryKey: adminQueryKeys.dictionaries() });
  const isItem = editing?.node ? editing.node.kind === 'item' : editing?.typeId !== null;

  return (
    <>
      <TreeGrid<DictNode>
        title={t('admin.dict.title')}
        testId="admin-dicts"
        data={tree.data}
        loading={tree.isFetching}
        searchText={(n) => `${n.name} ${n.code} ${n.value ?? ''}`}
        permissions={{ add: P.dict.add, edit: P.dict.edit, delete: P.dict.delete }}
        onAddRoot={() => setEditing({ node: null, typeId: null })}
        addRootLabel={t('admin.dict.addType')}
        onAddChild={(node) => setEditing({ node: null, typeId: node.id })}
        canAddChild={(node) => node.kind === 'type'}
        onEdit={(node) => setEditing({ node, typeId: node.parentId })}
        onDelete={(node) => adminApi.deleteDict(node.id)}
        deleteConfirm={(node) => t('admin.dict.deleteConfirm', { name: node.name })}
        onReload={reload}
        rowTestId={(n) => `dict-row-${n.kind === 'type' ? n.code : `${n.parentId}-${n.code}`}`}
        columns={[
          { title: t('admin.common.name'), dataIndex: 'name', width: 260 },
          {
            title: t('admin.dict.kind'),
            dataIndex: 'kind',
            width: 90,
            render: (_d, n) =>
              n.kind === 'type' ? (
                <Tag color="purple">{t('admin.dict.type')}</Tag>
              ) : (
                <Tag>{t('admin.dict.item')}</Tag>
              ),
          },
          {
            title: t('admin.common.code'),
            dataIndex: 'code',
            width: 200,
            render: (_d, n) => <Typography.Text code>{n.code}</Typography.Text>,
          },
          { title: t('admin.dict.value'), dataIndex: 'value', width: 160, render: (_d, n) => n.value ?? '-' },
          {
            title: t('admin.common.status'),
            dataIndex: 'enabled',
            width: 90,
            render: (_d, n) =>
              n.enabled ? (
                <Tag color="success">{t('admin.common.enabled')}</Tag>
              ) : (
                <Tag>{t('admin.common.disabled')}</Tag>
              ),
          },
          { title: t('admin.common.sort'), dataIndex: 'sort', width: 80 },
        ]}
      />
      <ModalForm<DictForm>
        title={
          editing?.node ? t('admin.dict.edit') : isItem ? t('admin.dict.addItem') : t('admin.dict.addType')
        }
        open={editing !== null}
        width={520}
        modalProps={{ destroyOnHidden: true, onCancel: () => setEditing(null) }}
        initialValues={
          editing?.node
            ? {
                code: editing.node.code,
                name: editing.node.name,
                value: editing.node.value ?? undefined,
                sort: editing.node.sort,
                enabled: editing.node.enabled,
              }
            : { sort: 0, enabled: true }
        }
        onFinish={async (values) => {
          const body = {
            code: values.code.trim(),
            name: values.name.trim(),
            value: isItem ? (values.value?.trim() ? values.value.trim() : null) : null,
            sort: values.sort ?? 0,
            enabled: values.enabled,
          };
          try {
            if (editing?.node) await adminApi.updateDict(editing.node.id, body);
            else await adminApi.createDict({ ...body, parentId: editing?.typeId ?? null });
          } catch {
            return false;
          }
          void message.success(editing?.node ? t('admin.common.modified') : t('admin.common.added'));
          setEditing(null);
          reload();
          return true;
        }}
      >
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
        {isItem && (
          <ProFormText
            name="value"
            label={t('admin.dict.value')}
            rules={[
              { max: 255, message: t('admin.common.tooLong', { label: t('admin.dict.value'), max: 255 }) },
            ]}
          />
        )}
        <ProFormDigit
          name="sort"
          label={t('admin.common.sort')}
          min={0}
          max={1_000_000}
          fieldProps={{ precision: 0 }}
        />
        <ProFormSwitch name="enabled" label={t('admin.common.enabled')} />
      </ModalForm>
    </>
  );
}
