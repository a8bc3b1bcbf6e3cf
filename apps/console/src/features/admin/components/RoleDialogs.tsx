import { ModalForm, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import type { OrganizationNode, ResourceNode, RoleView } from '@voltdepot/console-api-client';
import { App, Button, Empty, Flex, Input, Modal, Skeleton, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filterTree, flatten } from '../../../app/grid/treeRows';
import { adminApi } from '../api/adminApi';
import { adminQueryKeys } from '../queryKeys';
import { toggleGrant } from '../treeNodes';
import { adminRules } from './formRules';
import { buttonTestId } from './testIds';
import { useResourceLabel } from './useResourceLabel';
import { useRoleText } from '../../../app/session/useRoleText';

/** Add or edit a role. */
export function RoleFormDialog({
  open,
  role,
  onClose,
  onSaved,
}: {
  open: boolean;
  role: RoleView | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <ModalForm<{ code: string; name: string; description?: string }>
      title={role ? t('admin.role.edit') : t('admin.role.add')}
      open={open}
      width={520}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      initialValues={role ? { code: role.code, name: role.name, description: role.description ?? '' } : {}}
      onFinish={async (values) => {
        const body = {
          code: values.code.trim(),
          name: values.name.trim(),
          description: values.description?.trim() ? values.description.trim() : null,
        };
        try {
          if (role) await adminApi.updateRole(role.id, body);
          else await adminApi.createRole(body);
        } catch {
          return false;
        }
        void message.success(role ? t('admin.common.modified') : t('admin.common.added'));
        onSaved();
        return true;
      }}
    >
      <ProFormText
        name="code"
        label={t('admin.common.code')}
        rules={adminRules.code(t, t('admin.common.code'))}
        disabled={role?.builtin}
        fieldProps={{ 'data-testid': 'role-form-code' } as object}
      />
      <ProFormText
        name="name"
        label={t('admin.common.name')}
        rules={adminRules.name(t, t('admin.common.name'))}
        fieldProps={{ 'data-testid': 'role-form-name' } as object}
      />
      <ProFormTextArea
        name="description"
        label={t('admin.common.description')}
        rules={[
          {
            max: 255,
            message: t('admin.common.tooLong', { label: t('admin.common.description'), max: 255 }),
          },
        ]}
      />
    </ModalForm>
  );
}

type CheckTreeProps<T extends { id: number; children: T[] }> = {
  title: string;
  tree: readonly T[] | undefined;
  loading: boolean;
  granted: number[] | undefined;
  label: (node: T) => React.ReactNode;
  search: (node: T) => string;
  /** Menu authorisation ties a node to its ancestors and descendants; data authorisation does not. */
  linked: boolean;
  hint: string;
  onSave: (ids: number[]) => Promise<unknown>;
  onClose: () => void;
  open: boolean;
  testId: string;
};

/** A tickable tree dialog: what is ticked is exactly what is saved. */
function CheckTreeDialog<T extends { id: number; children: T[] }>(props: CheckTreeProps<T>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [checked, setChecked] = useState<Set<number>>(new Set());
  const [filter, setFilter] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (props.granted) setChecked(new Set(props.granted));
  }, [props.granted]);

  const visible = useMemo(() => {
    const text = filter.trim().toLowerCase();
    const tree = props.tree ?? [];
    return text === '' ? tree : filterTree(tree, (n) => props.search(n).toLowerCase().includes(text));
  }, [filter, props]);
  const toData = (nodes: readonly T[]): DataNode[] =>
    nodes.map((n) => ({ key: n.id, title: props.label(n), children: toData(n.children) }));
  const allIds = useMemo(() => flatten(props.tree ?? []).map((n) => n.id), [props.tree]);

  const save = async () => {
    setSaving(true);
    try {
      await props.onSave([...checked].sort((a, b) => a - b));
      void message.success(t('admin.common.saved'));
      props.onClose();
    } catch {
      // shown by the request layer
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={props.title}
      open={props.open}
      onCancel={props.onClose}
      onOk={save}
      okButtonProps={buttonTestId(`${props.testId}-save`, { loading: saving })}
      width={640}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{props.hint}</Typography.Paragraph>
      <Flex gap={8} style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('admin.common.searchTree')}
          onChange={(e) => setFilter(e.target.value)}
          data-testid={`${props.testId}-filter`}
        />
        <Button onClick={() => setChecked(new Set(allIds))}>{t('admin.common.checkAll')}</Button>
        <Button onClick={() => setChecked(new Set())}>{t('admin.common.checkNone')}</Button>
      </Flex>
      <div style={{ maxHeight: '55vh', overflow: 'auto' }} data-testid={props.testId}>
        {props.loading ? (
          <Skeleton active />
        ) : visible.length === 0 ? (
          <Empty />
        ) : (
          <Tree
            checkable
            checkStrictly
            selectable={false}
            defaultExpandAll={filter !== ''}
            key={filter}
            checkedKeys={{ checked: [...checked], halfChecked: [] }}
            onCheck={(_keys, info) => {
              const id = Number(info.node.key);
              setChecked((current) =>
                props.linked
                  ? toggleGrant(props.tree ?? [], current, id, info.checked)
                  : info.checked
                    ? new Set([...current, id])
                    : new Set([...current].filter((c) => c !== id)),
              );
            }}
            treeData={toData(visible)}
          />
        )}
      </div>
    </Modal>
  );
}

/** Menu authorisation: the menus and buttons (permission codes) a role holds, go_screen included. */
export function MenuAuthDialog({ role, onClose }: { role: RoleView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const roleText = useRoleText();
  const label = useResourceLabel();
  // The tree comes with the role's resources: the dialog needs only sys:role:menuAuth.
  const granted = useQuery({
    queryKey: adminQueryKeys.roleResources(role?.id ?? 0),
    queryFn: ({ signal }) => adminApi.roleResources(role!.id, signal),
    enabled: role !== null,
    staleTime: 0,
  });
  return (
    <CheckTreeDialog<ResourceNode>
      open={role !== null}
      title={t('admin.role.menuAuthOf', { name: role ? roleText.name(role) : '' })}
      hint={t('admin.role.menuAuthHint')}
      tree={granted.data?.tree}
      loading={granted.isLoading}
      granted={granted.data?.resourceIds}
      linked
      label={(n) => (
        <span data-testid={`resource-${n.code}`}>
          {label(n)}{' '}
          <Tag color={n.type === 'button' ? 'orange' : 'blue'} style={{ marginInlineStart: 4 }}>
            {n.type === 'button' ? t('admin.resource.button') : t('admin.resource.menu')}
          </Tag>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {n.code}
          </Typography.Text>
        </span>
      )}
      search={(n) => `${label(n)} ${n.name} ${n.code}`}
      onSave={(ids) => adminApi.setRoleResources(role!.id, ids).then(() => granted.refetch())}
      onClose={onClose}
      testId="menu-auth"
    />
  );
}

/** Data authorisation: the organisation subtrees a role's users see. */
export function DataAuthDialog({ role, onClose }: { role: RoleView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const roleText = useRoleText();
  // The caller's subtrees come with the role's organisations: the dialog needs only sys:role:dataAuth.
  const granted = useQuery({
    queryKey: adminQueryKeys.roleOrganizations(role?.id ?? 0),
    queryFn: ({ signal }) => adminApi.roleOrganizations(role!.id, signal),
    enabled: role !== null,
    staleTime: 0,
  });
  return (
    <CheckTreeDialog<OrganizationNode>
      open={role !== null}
      title={t('admin.role.dataAuthOf', { name: role ? roleText.name(role) : '' })}
      hint={t('admin.role.dataAuthHint')}
      tree={granted.data?.tree}
      loading={granted.isLoading}
      granted={granted.data?.organizationIds}
      linked={false}
      label={(n) => (
        <span data-testid={`org-${n.code}`}>
          {n.name}{' '}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {n.code}
          </Typography.Text>
        </span>
      )}
      search={(n) => `${n.name} ${n.code}`}
      onSave={(ids) => adminApi.setRoleOrganizations(role!.id, ids).then(() => granted.refetch())}
      onClose={onClose}
      testId="data-auth"
    />
  );
}
