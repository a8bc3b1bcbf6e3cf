import { KeyOutlined, LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useClickGuard } from '@voltdepot/console-ui';
import { Button, Card, Flex, Form, Input, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { AuthErrorCodes, type SessionTokens, type TotpEnrolmentTicket } from '@voltdepot/shared-contracts';
import { usePlatformSettings, useSystemTitle } from '../../../app/platform/PlatformSettingsContext';
import { MountWhenOpened } from '../../../app/lazy/lazyNamed';
import { authApi, toSessionToken } from '../../../app/session/authApi';
import { sessionQueryKeys } from '../../../app/session/queryKeys';
import type { LoginLocationState } from '../../../app/session/SessionGate';
import { useAccessToken } from '../../../app/session/useSession';
import { isTokenExpired, RequestError, sessionStore } from '../../../request';
import { RequiredTotpEnrolmentDialog } from '../../admin';
import { loginRules, type LoginForm } from '../loginRules';

const HOME_PATH = '/home';

/** Sign-in with user name, password and verification code (spec §5 "Login"). */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as LoginLocationState | null)?.from;
  const targetAfterLogin = from && from !== '/login' ? from : HOME_PATH;
  const queryClient = useQueryClient();
  const title = useSystemTitle();
  const { logo } = usePlatformSettings();
  const [form] = Form.useForm<LoginForm>();
  const [submitting, setSubmitting] = useState(false);
  const [askTotp, setAskTotp] = useState(false);
  const [enrolmentTicket, setEnrolmentTicket] = useState<string | null>(null);
  const token = useAccessToken();

  const captcha = useQuery({
    queryKey: sessionQueryKeys.captcha(),
    queryFn: async ({ signal }) => (await authApi.captcha(signal)) ?? null,
    staleTime: Infinity,
    gcTime: 0,
  });
  const refreshCaptcha = () => {
    form.setFieldValue('captchaCode', '');
    void captcha.refetch();
  };

  // Each code is good for one attempt and until it expires: fetch a new image when it does.
  const expiresAt = captcha.data?.expiresAt;
  const refetchCaptcha = captcha.refetch;
  useEffect(() => {
    if (!expiresAt) return;
    const timer = setTimeout(() => void refetchCaptcha(), Math.max(expiresAt - Date.now(), 0));
    return () => clearTimeout(timer);
  }, [expiresAt, refetchCaptcha]);

  const submit = async () => {
    let values: LoginForm;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is wrong
    }
    const current = captcha.data;
    if (!current) {
      refreshCaptcha();
      return;
    }
    setSubmitting(true);
    try {
      // A new sign-in replaces whatever session was stored (it must not be sent or refreshed).
      sessionStore.clear();
      const tokens = await authApi.login({
        username: values.username.trim(),
        password: values.password,
        captchaId: current.captchaId,
        captchaCode: values.captchaCode.trim(),
        ...(askTotp && values.totpCode ? { totpCode: values.totpCode.trim() } : {}),
      });
      if (!tokens) {
        refreshCaptcha();
        return;
      }
      await signedIn(tokens);
    } catch (error) {
      // The request layer has shown the server's message; the code is used up either way.
      refreshCaptcha();
      // The account has a second factor: the form asks for its code (with a new verification code).
      if (error instanceof RequestError && error.body?.code === AuthErrorCodes.TotpRequired) setAskTotp(true);
      if (error instanceof RequestError && error.body?.code === AuthErrorCodes.TotpEnrolmentRequired) {
        setEnrolmentTicket((error.body.details as TotpEnrolmentTicket).enrolmentToken);
      }
    } finally {
      setSubmitting(false);
    }
  };
  const guard = useClickGuard(submit);

  async function signedIn(tokens: SessionTokens): Promise<void> {
    queryClient.clear();
    sessionStore.set(toSessionToken(tokens));
    await navigate(targetAfterLogin, { replace: true });
  }

  // Already signed in (another tab, the back button, or the re-render right after signing in): go on to
  // where the user was going. Both paths must agree, or whichever runs first would decide.
  const session = token ? sessionStore.get() : null;
  if (session && !isTokenExpired(session, Date.now()) && !submitting) {
    return <Navigate to={targetAfterLogin} replace />;
  }

  return (
    <Flex justify="center" style={{ paddingTop: '8vh' }}>
      <Card style={{ width: 400, maxWidth: '100%' }}>
        <Flex vertical align="center" gap={8} style={{ marginBottom: 24 }}>
          <img src={logo} alt="" height={48} />
          <Typography.Title level={3} style={{ margin: 0, textAlign: 'center' }}>
            {title}
          </Typography.Title>
          <Typography.Text type="secondary">{t('login.title')}</Typography.Text>
        </Flex>
        {/* No native submit: the button and Enter in a field share one double-click guard. */}
        <Form form={form} layout="vertical" size="large" requiredMark={false} component="div">
          <Form.Item name="username" rules={loginRules.username(t)}>
            <Input
              prefix={<UserOutlined />}
              placeholder={t('login.username')}
              aria-label={t('login.username')}
              data-testid="login-username"
              autoComplete="username"
              autoFocus
              onPressEnter={guard.onClick}
            />
          </Form.Item>
          <Form.Item name="password" rules={loginRules.password(t)}>
            <Input.Password
              prefix={<LockOutlined />}
              placeholder={t('login.password')}
              aria-label={t('login.password')}
              data-testid="login-password"
              autoComplete="current-password"
              onPressEnter={guard.onClick}
            />
          </Form.Item>
          {askTotp && (
            <Form.Item
              name="totpCode"
              rules={[{ required: true, whitespace: true, message: t('login.totpRequired') }]}
              extra={t('login.totpHint')}
            >
              <Input
                prefix={<KeyOutlined />}
                placeholder={t('login.totp')}
                aria-label={t('login.totp')}
                data-testid="login-totp"
                autoComplete="one-time-code"
                maxLength={32}
                autoFocus
                onPressEnter={guard.onClick}
              />
            </Form.Item>
          )}
          <Flex gap={8} align="start">
            <Form.Item name="captchaCode" rules={loginRules.captchaCode(t)} style={{ flex: 1 }}>
              <Input
                prefix={<SafetyOutlined />}
                placeholder={t('login.captcha')}
                aria-label={t('login.captcha')}
                data-testid="login-captcha"
                autoComplete="off"
                maxLength={16}
                onPressEnter={guard.onClick}
              />
            </Form.Item>
            <button
              type="button"
              onClick={refreshCaptcha}
              title={t('login.captchaRefresh')}
              aria-label={t('login.captchaRefresh')}
              data-testid="captcha-refresh"
              style={{ padding: 0, border: 'none', background: 'none', cursor: 'pointer', height: 40 }}
            >
              {captcha.data ? (
                <img
                  src={captcha.data.image}
                  alt={t('login.captchaImage')}
                  width={120}
                  height={40}
                  style={{ display: 'block', borderRadius: 6, border: '1px solid rgba(0,0,0,0.1)' }}
                />
              ) : (
                <Skeleton.Button active style={{ width: 120, height: 40 }} />
              )}
            </button>
          </Flex>
          <Button
            type="primary"
            block
            loading={submitting}
            disabled={guard.busy && !submitting}
            onClick={guard.onClick}
            data-testid="login-submit"
          >
            {t('login.submit')}
          </Button>
        </Form>
        <MountWhenOpened open={enrolmentTicket !== null}>
          <RequiredTotpEnrolmentDialog
            enrolmentToken={enrolmentTicket}
            onCancel={() => {
              setEnrolmentTicket(null);
              refreshCaptcha();
            }}
            onSignedIn={(tokens) => {
              setEnrolmentTicket(null);
              void signedIn(tokens);
            }}
          />
        </MountWhenOpened>
      </Card>
    </Flex>
  );
}
