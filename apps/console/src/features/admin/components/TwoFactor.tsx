import { SafetyCertificateOutlined } from '@ant-design/icons';
import { ProForm, ProFormText } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPath, type ApiResponse } from '@voltdepot/console-api-client';
import { GuardedButton } from '@voltdepot/console-ui';
import type { SessionTokens, TotpEnrolment } from '@voltdepot/shared-contracts';
import { Alert, App, Button, Flex, Modal, Result, Skeleton, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../../request';
import { adminApi } from '../api/adminApi';
import { sessionQueryKeys } from '../../../app/session/queryKeys';
import { adminQueryKeys } from '../queryKeys';

/** Scan the QR code (or type the secret) and confirm with a first code. */
function EnrolmentStep({
  enrolment,
  onConfirm,
}: {
  enrolment: TotpEnrolment;
  onConfirm: (code: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={12} align="center" data-testid="totp-enrolment">
      <Typography.Paragraph style={{ alignSelf: 'stretch' }}>{t('admin.totp.scan')}</Typography.Paragraph>
      <img
        src={enrolment.qrCode}
        alt={t('admin.totp.qrAlt')}
        width={200}
        height={200}
        data-testid="totp-qr"
      />
      <Typography.Text type="secondary">{t('admin.totp.secretHint')}</Typography.Text>
      <Typography.Text code copyable data-testid="totp-secret">
        {enrolment.secret}
      </Typography.Text>
      <ProForm<{ code: string }>
        layout="inline"
        style={{ marginTop: 8 }}
        onFinish={async ({ code }) => {
          await onConfirm(code.trim()).catch(() => undefined); // the request layer showed it
        }}
        submitter={{
          render: (props) => (
            <GuardedButton
              type="primary"
              data-testid="totp-confirm"
              loading={submitting(props.submitButtonProps)}
              onClick={() => props.submit?.()}
            >
              {t('admin.totp.confirm')}
            </GuardedButton>
          ),
        }}
      >
        <ProFormText
          name="code"
          rules={[
            { required: true, message: t('admin.totp.codeRequired') },
            { pattern: /^\d{6}$/, message: t('admin.totp.codeSixDigits') },
          ]}
          fieldProps={
            {
              placeholder: t('admin.totp.code'),
              maxLength: 6,
              inputMode: 'numeric',
              autoComplete: 'one-time-code',
              'data-testid': 'totp-code',
            } as object
          }
        />
      </ProForm>
    </Flex>
  );
}

/** Whether a ProForm submitter's button is loading (its form is submitting). */
function submitting(props: unknown): boolean {
  return typeof props === 'object' && props !== null && (props as { loading?: unknown }).loading === true;
}

/** The recovery codes, shown once. */
function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={12} data-testid="totp-recovery-codes">
      <Alert type="warning" showIcon message={t('admin.totp.recoveryWarning')} />
      <Flex wrap gap={8}>
        {codes.map((c) => (
          <Tag key={c} style={{ fontFamily: 'monospace', fontSize: 14, padding: '4px 8px' }}>
            {c}
          </Tag>
        ))}
      </Flex>
      <Typography.Text
        copyable={{ text: codes.join('\n'), tooltips: [t('admin.totp.copy'), t('admin.totp.copied')] }}
      >
        {t('admin.totp.copyAll')}
      </Typography.Text>
    </Flex>
  );
}

/**
 * The user's own second factor, for the user menu: shows whether TOTP is on; enrols (QR code, first
 * code, recovery codes) or turns it off with the password.
 */
export function TwoFactorDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const ext = useQuery({
    queryKey: adminQueryKeys.twoFactor(),
    queryFn: ({ signal }) =>
      request.get<ApiResponse<'CurrentUserController_ext'>>(apiPath('CurrentUserController_ext'), { signal }),
    enabled: open,
    staleTime: 0,
  });
  useEffect(() => {
    if (!open) {
      setEnrolment(null);
      setCodes(null);
      setDisabling(false);
    }
  }, [open]);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: adminQueryKeys.twoFactor() });
    // The current user says whether an administrator lacks a second factor (the shell's warning).
    void queryClient.invalidateQueries({ queryKey: sessionQueryKeys.currentUser() });
  };

  const body = () => {
    if (ext.isLoading || !ext.data) return <Skeleton active />;
    if (codes) return <RecoveryCodes codes={codes} />;
    if (enrolment) {
      return (
        <EnrolmentStep
          enrolment={enrolment}
          onConfirm={async (code) => {
            const activation = await adminApi.activateTotp(code);
            if (activation) {
              setCodes(activation.recoveryCodes);
              void message.success(t('admin.totp.enabledNow'));
              refresh();
            }
          }}
        />
      );
    }
    if (ext.data.totpEnabled) {
      return (
        <Flex vertical gap={12}>
          <Result
            status="success"
            icon={<SafetyCertificateOutlined />}
            title={t('admin.totp.isOn')}
            subTitle={t('admin.totp.isOnHint')}
          />
          {disabling ? (
            <ProForm<{ password: string }>
              layout="vertical"
              onFinish={async ({ password }) => {
                try {
                  await adminApi.disableTotp(password);
                } catch {
                  return; // shown by the request layer
                }
                void message.success(t('admin.totp.disabledNow'));
                setDisabling(false);
                refresh();
              }}
              submitter={{
                render: (props) => (
                  <GuardedButton
                    danger
                    data-testid="totp-disable-confirm"
                    loading={submitting(props.submitButtonProps)}
                    onClick={() => props.submit?.()}
                  >
                    {t('admin.totp.turnOff')}
                  </GuardedButton>
                ),
              }}
            >
              <ProFormText.Password
                name="password"
                label={t('admin.totp.currentPassword')}
                rules={[{ required: true, message: t('admin.totp.passwordRequired') }]}
                fieldProps={
                  { autoComplete: 'current-password', 'data-testid': 'totp-disable-password' } as object
                }
              />
            </ProForm>
          ) : (
            <Button danger onClick={() => setDisabling(true)} data-testid="totp-disable">
              {t('admin.totp.turnOff')}
            </Button>
          )}
        </Flex>
      );
    }
    return (
      <Result
        status="info"
        icon={<SafetyCertificateOutlined />}
        title={t('admin.totp.isOff')}
        subTitle={t('admin.totp.isOffHint')}
        extra={
          <GuardedButton
            type="primary"
            data-testid="totp-enrol"
            onClick={async () => {
              const started = await adminApi.enrolTotp().catch(() => undefined);
              if (started) setEnrolment(started);
            }}
          >
            {t('admin.totp.turnOn')}
          </GuardedButton>
        }
      />
    );
  };

  return (
    <Modal
      title={t('admin.totp.title')}
      open={open}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('admin.common.close')}</Button>}
      destroyOnHidden
      width={520}
    >
      {body()}
    </Modal>
  );
}

/**
 * For the sign-in page: the sign-in answered AUTH_TOTP_ENROLMENT_REQUIRED (TOTP is mandatory for
 * administrators and this one has none). Enrols with the ticket from the error's details, shows the
 * recovery codes, then hands over the session.
 */
export function RequiredTotpEnrolmentDialog({
  enrolmentToken,
  onCancel,
  onSignedIn,
}: {
  /** null: closed. */
  enrolmentToken: string | null;
  onCancel: () => void;
  onSignedIn: (tokens: SessionTokens) => void;
}) {
  const { t } = useTranslation();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [done, setDone] = useState<{ codes: string[]; session: SessionTokens } | null>(null);
  useEffect(() => {
    setEnrolment(null);
    setDone(null);
    if (enrolmentToken === null) return;
    let live = true;
    adminApi
      .startRequiredEnrolment(enrolmentToken)
      .then((started) => live && started && setEnrolment(started))
      .catch(() => live && onCancel());
    return () => {
      live = false;
    };
  }, [enrolmentToken, onCancel]);

  return (
    <Modal
      title={t('admin.totp.requiredTitle')}
      open={enrolmentToken !== null}
      onCancel={done ? undefined : onCancel}
      closable={!done}
      maskClosable={false}
      destroyOnHidden
      width={520}
      footer={
        done ? (
          <Button type="primary" onClick={() => onSignedIn(done.session)} data-testid="totp-continue">
            {t('admin.totp.continue')}
          </Button>
        ) : (
          <Button onClick={onCancel}>{t('admin.common.cancel')}</Button>
        )
      }
    >
      <Alert type="info" showIcon message={t('admin.totp.requiredHint')} style={{ marginBottom: 16 }} />
      {done ? (
        <RecoveryCodes codes={done.codes} />
      ) : enrolment ? (
        <EnrolmentStep
          enrolment={enrolment}
          onConfirm={async (code) => {
            const result = await adminApi.completeRequiredEnrolment(enrolmentToken!, code);
            if (result) setDone({ codes: result.recoveryCodes, session: result.session });
          }}
        />
      ) : (
        <Skeleton active />
      )}
    </Modal>
  );
}
