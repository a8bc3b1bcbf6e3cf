import { ModalForm, ProFormText } from '@ant-design/pro-components';
import { useMutation } from '@tanstack/react-query';
import { GuardedButton } from '@voltdepot/console-ui';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { authApi } from '../session/authApi';

/** The server's rule for a new password (at least 6 characters, at most 128). */
export const PASSWORD_MIN_LENGTH = 6;
const PASSWORD_MAX_LENGTH = 128;

type PasswordForm = { oldPassword: string; newPassword: string; confirmPassword: string };

/** Change own password (PUT /user/password): the other sessions end, this one stays. */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const change = useMutation({
    mutationFn: (values: PasswordForm) =>
      authApi.changePassword({ oldPassword: values.oldPassword, newPassword: values.newPassword }),
  });

  return (
    <ModalForm<PasswordForm>
      open={open}
      title={t('password.title')}
      width={520}
      layout="vertical"
      autoComplete="off"
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      onFinish={async (values) => {
        try {
          await change.mutateAsync(values);
        } catch {
          return false; // the request layer showed the server's message
        }
        void message.success(t('password.changed'));
        onClose();
        return true;
      }}
      submitter={{
        // OK is guarded against double clicks (spec §9); it stays loading through the call.
        render: (props) => [
          <Button key="cancel" onClick={onClose}>
            {t('common.cancel')}
          </Button>,
          <GuardedButton
            key="ok"
            type="primary"
            loading={change.isPending}
            onClick={() => props.submit?.()}
            data-testid="password-ok"
          >
            {t('common.ok')}
          </GuardedButton>,
        ],
      }}
    >
      <ProFormText.Password
        name="oldPassword"
        label={t('password.old')}
        rules={[{ required: true, message: t('password.oldRequired') }]}
        fieldProps={{ autoComplete: 'current-password' }}
      />
      <ProFormText.Password
        name="newPassword"
        label={t('password.new')}
        rules={[
          { required: true, message: t('password.newRequired') },
          { min: PASSWORD_MIN_LENGTH, message: t('login.passwordMin') },
          { max: PASSWORD_MAX_LENGTH, message: t('password.tooLong') },
        ]}
        fieldProps={{ autoComplete: 'new-password' }}
      />
      <ProFormText.Password
        name="confirmPassword"
        label={t('password.confirm')}
        dependencies={['newPassword']}
        rules={[
          { required: true, message: t('password.confirmRequired') },
          ({ getFieldValue }) => ({
            validator: (_rule, value) =>
              !value || value === getFieldValue('newPassword')
                ? Promise.resolve()
                : Promise.reject(new Error(t('password.mismatch'))),
          }),
        ]}
        fieldProps={{ autoComplete: 'new-password' }}
      />
    </ModalForm>
  );
}
