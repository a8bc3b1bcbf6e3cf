import {
  ModalForm,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTreeSelect,
} from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { usePermission } from '@voltdepot/console-ui';
import type { UserView } from '@voltdepot/console-api-client';
import { App, Checkbox, Empty, Modal, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api/adminApi';
import { useAllRoles, useOrganizationTree } from '../hooks/useAdminData';
import { ADMIN_PERMISSIONS } from '../permissions';
import { adminQueryKeys } from '../queryKeys';
import { adminRules, treeOptions } from './formRules';
import { buttonTestId } from './testIds';
import { useRoleText } from '../../../app/session/useRoleText';

type UserForm = {
  username: string;
  password: string;
  confirmPassword: string;
  realName: string;
  phone?: string;
  email?: string;
  organizationId: number;
  roleIds?: number[];
  enabled: boolean;
};

const blankToNull = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : null);

/** Add (with password and roles) or edit a user. */
export function UserFormDialog({
  open,
  user,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** null: add. */
  user: UserView | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const organizations = useOrganizationTree(open);
  const roles = useAllRoles();
  const roleText = useRoleText();
  const canAssignRoles = usePermission(ADMIN_PERMISSIONS.user.role);
  const adding = user === null;

  return (
    <ModalForm<UserForm>
      title={adding ? t('admin.user.add') : t('admin.user.edit')}
      open={open}
      width={560}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      initialValues={
        user
          ? {
              realName: user.realName,
              phone: user.phone ?? undefined,
              email: user.email ?? undefined,
              organizationId: user.organizationId,
              roleIds: user.roleIds,
              enabled: user.enabled,
            }
          : { enabled: true, roleIds: [] }
      }
      onFinish={async (values) => {
        const common = {
          realName: values.realName.trim(),
          phone: blankToNull(values.phone),
          email: blankToNull(values.email),
          organizationId: values.organizationId,
          ...(canAssignRoles ? { roleIds: values.roleIds ?? [] } : {}),
        };
        try {
          if (adding) {
            await adminApi.createUser({
              ...common,
              username: values.username.trim(),
              password: values.password,
              enabled: values.enabled,
            });
            void message.success(t('admin.common.added'));
          } else {
            await adminApi.updateUser(user.id, common);
            void message.success(t('admin.common.modified'));
          }
        } catch {
          return false; // the request layer showed the server's message
        }
        onSaved();
        return true;
      }}
    >
      {adding && (
        <ProFormText
          name="username"
          label={t('admin.user.username')}
          rules={adminRules.username(t)}
          fieldProps={{ 'data-testid': 'user-form-username', autoComplete: 'off' } as object}
        />
      )}
      {adding && (
        <ProFormText.Password
          name="password"
          label={t('admin.user.password')}
          rules={adminRules.password(t)}
          fieldProps={{ 'data-testid': 'user-form-password', autoComplete: 'new-password' } as object}
        />
      )}
      {adding && (
        <ProFormText.Password
          name="confirmPassword"
          label={t('admin.user.confirmPassword')}
          dependencies={['password']}
          rules={adminRules.confirmPassword(t)}
          fieldProps={{ 'data-testid': 'user-form-confirm', autoComplete: 'new-password' } as object}
        />
      )}
      <ProFormText
        name="realName"
        label={t('admin.user.realName')}
        rules={adminRules.name(t, t('admin.user.realName'))}
        fieldProps={{ 'data-testid': 'user-form-realName' } as object}
      />
      <ProFormTreeSelect
        name="organizationId"
        label={t('admin.user.organization')}
        rules={[{ required: true, message: t('admin.user.organizationRequired') }]}
        fieldProps={{
          treeData: treeOptions(organizations.data ?? [], (o) => o.name),
          treeDefaultExpandAll: true,
          loading: organizations.isFetching,
        }}
      />
      {canAssignRoles && (
        <ProFormSelect
          name="roleIds"
          label={t('admin.user.roles')}
          mode="multiple"
          options={(roles.data ?? []).map((r) => ({ value: r.id, label: roleText.name(r) }))}
          fieldProps={{ loading: roles.isFetching, 'data-testid': 'user-form-roles' } as object}
        />
      )}
      <ProFormText name="phone" label={t('admin.user.phone')} rules={adminRules.phone(t)} />
      <ProFormText name="email" label={t('admin.user.email')} rules={adminRules.email(t)} />
      {adding && <ProFormSwitch name="enabled" label={t('admin.user.enabled')} />}
    </ModalForm>
  );
}

/** The user-role dialog: tick the roles a user holds. */
export function UserRolesDialog({
  user,
  onClose,
  onSaved,
}: {
  user: UserView | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const roles = useAllRoles();
  const roleText = useRoleText();
  const current = useQuery({
    queryKey: adminQueryKeys.userRoles(user?.id ?? 0),
    queryFn: ({ signal }) => adminApi.userRoles(user!.id, signal),
    enabled: user !== null,
    staleTime: 0,
  });
  // The ticks start from the user's roles as the server has them now, once per opening; after that they
  // are the administrator's alone: a late or repeated answer (a refetch) never undoes a tick, and the
  // boxes are not shown, nor can be saved, before that start.
  const [selected, setSelected] = useState<number[] | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (user === null) setSelected(null);
  }, [user]);
  const fresh = current.isSuccess && !current.isFetching ? current.data : undefined;
  useEffect(() => {
    if (fresh && selected === null) setSelected(fresh.roleIds);
  }, [fresh, selected]);

  const save = async () => {
    if (!user || selected === null) return;
    setSaving(true);
    try {
      await adminApi.setUserRoles(user.id, selected);
      void message.success(t('admin.user.rolesSaved'));
      onSaved();
    } catch {
      // shown by the request layer
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={t('admin.user.assignRolesOf', { name: user?.realName ?? '' })}
      open={user !== null}
      onCancel={onClose}
      onOk={save}
      okButtonProps={buttonTestId('user-roles-save', { loading: saving, disabled: selected === null })}
      destroyOnHidden
    >
      {current.isError ? (
        <Empty />
      ) : roles.isLoading || selected === null ? (
        <Skeleton active />
      ) : (roles.data ?? []).length === 0 ? (
        <Empty />
      ) : (
        <Checkbox.Group
          style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
          value={selected}
          onChange={(values) => setSelected(values as number[])}
          options={(roles.data ?? []).map((r) => ({
            value: r.id,
            label: (
              <span data-testid={`user-role-${r.code}`}>
                {roleText.name(r)} <span style={{ color: '#999' }}>({r.code})</span>
              </span>
            ),
          }))}
        />
      )}
    </Modal>
  );
}

/** An administrator sets a new password for a user (their sessions end). */
export function ResetPasswordDialog({ user, onClose }: { user: UserView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <ModalForm<{ password: string; confirmPassword: string }>
      title={t('admin.user.resetPasswordOf', { name: user?.realName ?? '' })}
      open={user !== null}
      width={460}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      onFinish={async (values) => {
        try {
          await adminApi.resetPassword(user!.id, values.password);
        } catch {
          return false;
        }
        void message.success(t('admin.user.passwordReset'));
        onClose();
        return true;
      }}
    >
      <ProFormText.Password
        name="password"
        label={t('admin.user.newPassword')}
        rules={adminRules.password(t)}
        fieldProps={{ autoComplete: 'new-password' }}
      />
      <ProFormText.Password
        name="confirmPassword"
        label={t('admin.user.confirmPassword')}
        dependencies={['password']}
        rules={adminRules.confirmPassword(t)}
        fieldProps={{ autoComplete: 'new-password' }}
      />
    </ModalForm>
  );
}

/** Copy user: a new account in the same organisation with the same roles. */
export function CopyUserDialog({
  user,
  onClose,
  onSaved,
}: {
  user: UserView | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <ModalForm<{ username: string; realName: string; password: string; confirmPassword: string }>
      title={t('admin.user.copyOf', { name: user?.realName ?? '' })}
      open={user !== null}
      width={480}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      onFinish={async (values) => {
        try {
          await adminApi.copyUser(user!.id, {
            username: values.username.trim(),
            realName: values.realName.trim(),
            password: values.password,
          });
        } catch {
          return false;
        }
        void message.success(t('admin.user.copied'));
        onSaved();
        return true;
      }}
    >
      <ProFormText name="username" label={t('admin.user.username')} rules={adminRules.username(t)} />
      <ProFormText
        name="realName"
        label={t('admin.user.realName')}
        rules={adminRules.name(t, t('admin.user.realName'))}
      />
      <ProFormText.Password
        name="password"
        label={t('admin.user.password')}
        rules={adminRules.password(t)}
        fieldProps={{ autoComplete: 'new-password' }}
      />
      <ProFormText.Password
        name="confirmPassword"
        label={t('admin.user.confirmPassword')}
        dependencies={['password']}
        rules={adminRules.confirmPassword(t)}
        fieldProps={{ autoComplete: 'new-password' }}
      />
    </ModalForm>
  );
}
