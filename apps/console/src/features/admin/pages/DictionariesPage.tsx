import { ProFormSwitch, ProFormText } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import type { DictNode } from '@voltdepot/console-api-client';
import { Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GridPage } from '../../../app/grid/GridPage';
import { useRowsGrid } from '../../../app/grid/useGrid';
import { adminApi } from '../api/adminApi';
import { TreeNodeDialog, type TreeNodeFields } from '../components/TreeNodeDialog';
import { treeRowActions } from '../components/treeRowActions';
import { ADMIN_PERMISSIONS as P } from '../permissions';
import { adminQueryKeys } from '../queryKeys';

/** node null: add (a type when typeId is null, else an item of that type). */
type Editing = { node: DictNode | null; typeId: number | null };
type DictForm = TreeNodeFields & { value?: string; enabled: boolean };

const dictRowTestId = (n: DictNode) => `dict-row-${n.kind === 'type' ? n.code : `${n.parentId}-${n.code}`}`;

/** Dictionaries: types and their items; every screen takes the options of its enumerations here. */
export function DictionariesPage() {
  const { t } = useTranslation();
  const tree = useQuery({
    queryKey: adminQueryKeys.dictionaries(),
    queryFn: ({ signal }) => adminApi.dictTree(signal),
  });
  const grid = useRowsGrid(adminQueryKeys.dictionaries(), tree);
  const [editing, setEditing] = useState<Editing | null>(null);
  const isItem = editing?.node ? editing.node.kind === 'item' : editing?.typeId !== null;

  return (
    <>
      <GridPage<DictNode>
        grid={grid}
        title={t('admin.dict.title')}
        testId="admin-dicts"
        texts="admin.common"
        tree={{
          searchText: (n) => `${n.name} ${n.code} ${n.value ?? ''}`,
          searchTestId: 'admin-dicts-search',
        }}
        toolbar={[
          {
            key: 'add',
            label: t('admin.dict.addType'),
            permission: P.dict.add,
            testId: 'admin-dicts-add',
            onClick: () => setEditing({ node: null, typeId: null }),
          },
        ]}
        rowActions={treeRowActions<DictNode>(t, {
          rowTestId: dictRowTestId,
          permissions: P.dict,
          addChild: (node) => setEditing({ node: null, typeId: node.id }),
          canAddChild: (node) => node.kind === 'type',
          edit: (node) => setEditing({ node, typeId: node.parentId }),
          remove: (node) => adminApi.deleteDict(node.id),
          confirmDelete: (node) => t('admin.dict.deleteConfirm', { name: node.name }),
        })}
        actionsWidth={220}
        scrollX={1000}
        table={{ onRow: (node) => ({ 'data-testid': dictRowTestId(node) }) as object }}
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
          {
            title: t('admin.dict.value'),
            dataIndex: 'value',
            width: 160,
            // A stored value, like the code: shown as code, not as a label.
            render: (_d, n) => (n.value ? <Typography.Text code>{n.value}</Typography.Text> : '-'),
          },
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
      <TreeNodeDialog<DictForm>
        title={
          editing?.node ? t('admin.dict.edit') : isItem ? t('admin.dict.addItem') : t('admin.dict.addType')
        }
        open={editing !== null}
        editing={Boolean(editing?.node)}
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
        save={(values) => {
          // A type has no value; an item's blank value is none.
          const body = { ...values, value: isItem && values.value?.trim() ? values.value.trim() : null };
          return editing?.node
            ? adminApi.updateDict(editing.node.id, body)
            : adminApi.createDict({ ...body, parentId: editing?.typeId ?? null });
        }}
        onClose={() => setEditing(null)}
        onSaved={() => void grid.reload()}
        after={<ProFormSwitch name="enabled" label={t('admin.common.enabled')} />}
      >
        {isItem && (
          <ProFormText
            name="value"
            label={t('admin.dict.value')}
            rules={[
              { max: 255, message: t('admin.common.tooLong', { label: t('admin.dict.value'), max: 255 }) },
            ]}
          />
        )}
      </TreeNodeDialog>
    </>
  );
}
