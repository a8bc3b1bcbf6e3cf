import { ReloadOutlined } from '@ant-design/icons';
import {
  ProForm,
  ProFormDependency,
  ProFormList,
  ProFormRadio,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
} from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { usePermission } from '@voltdepot/console-ui';
import { PlatformConfigKeys as K } from '@voltdepot/shared-contracts';
import { Alert, App, Button, Card, Skeleton } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { translateIfKey } from '../../../app/platform/platformSettings';
import { adminApi, type PlatformConfigRow } from '../api/adminApi';
import { buttonTestId } from '../components/testIds';
import { useDictItems } from '../hooks/useAdminData';
import { ADMIN_PERMISSIONS as P } from '../permissions';
import { adminQueryKeys } from '../queryKeys';

type SettingsForm = {
  systemName: string;
  systemTitle: string;
  logo: string;
  logoTitleMode: string;
  noticeIcon: boolean;
  bigScreen: boolean;
  cityCode: string;
  systemList: { name: string; url: string }[];
};

function formOf(rows: readonly PlatformConfigRow[]): SettingsForm {
  const value = (key: string) => rows.find((r) => r.configKey === key)?.configValue ?? '';
  let systemList: SettingsForm['systemList'] = [];
  try {
    const parsed: unknown = JSON.parse(value(K.SystemList) || '[]');
    if (Array.isArray(parsed)) systemList = parsed as SettingsForm['systemList'];
  } catch {
    systemList = [];
  }
  return {
    systemName: value(K.SystemName),
    systemTitle: value(K.SystemTitle),
    logo: value(K.Logo),
    logoTitleMode: value(K.LogoTitleMode),
    noticeIcon: value(K.NoticeIcon) === '1',
    bigScreen: value(K.BigScreen) === '1',
    cityCode: value(K.CityCode),
    systemList,
  };
}

function valuesOf(form: SettingsForm): Record<string, string> {
  return {
    [K.SystemName]: form.systemName.trim(),
    [K.SystemTitle]: form.systemTitle.trim(),
    [K.Logo]: form.logo.trim(),
    [K.LogoTitleMode]: form.logoTitleMode,
    [K.NoticeIcon]: form.noticeIcon ? '1' : '0',
    [K.BigScreen]: form.bigScreen ? '1' : '0',
    [K.CityCode]: form.cityCode,
    [K.SystemList]: JSON.stringify(
      (form.systemList ?? []).map((s) => ({ name: s.name.trim(), url: s.url.trim() })),
    ),
  };
}

/**
 * Platform settings (`sys:config`): the public platform module configs the console reads at start-up:
 * system name and title, logo, logo-title mode, notice icon, big screen, city code, system list.
 */
export function PlatformSettingsPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const canEdit = usePermission(P.config.edit);
  // Dictionary items carry one stored name; the options show the console's label in the current language.
  const optionLabel = (list: 'logoTitleModes' | 'cityCodes', value: string, name: string) =>
    (t as unknown as (key: string, options: { defaultValue: string }) => string)(
      `admin.config.${list}.${value}`,
      { defaultValue: name },
    );
  const shownAs = (name: string) =>
    translateIfKey(name.trim(), (key) => (i18n.exists(key) ? String(i18n.t(key as never)) : key));
  const modes = useDictItems('logo_title_mode');
  const cities = useDictItems('city_code');
  const rows = useQuery({
    queryKey: adminQueryKeys.configs('platform'),
    queryFn: async ({ signal }) => (await adminApi.configPage('platform', 1, 100, signal)).list,
  });
  const initial = useMemo(() => (rows.data ? formOf(rows.data) : null), [rows.data]);

  if (!initial) {
    return (
      <Card title={t('admin.config.title')}>
        <Skeleton active />
      </Card>
    );
  }

  return (
    <Card title={t('admin.config.title')} data-testid="admin-platform-settings">
      <Alert type="info" showIcon message={t('admin.config.hint')} style={{ marginBottom: 24 }} />
      <ProForm<SettingsForm>
        layout="horizontal"
        labelCol={{ span: 5 }}
        labelWrap
        wrapperCol={{ span: 14 }}
        initialValues={initial}
        disabled={!canEdit}
        submitter={
          canEdit
            ? {
                searchConfig: { submitText: t('admin.common.save'), resetText: t('admin.common.reset') },
                submitButtonProps: buttonTestId('platform-save'),
              }
            : false
        }
        onFinish={async (form) => {
          const before = valuesOf(initial);
          const after = valuesOf(form);
          const changed = Object.keys(after).filter((key) => after[key] !== before[key]);
          try {
            // One request, one transaction: either every changed setting is saved or none is.
            if (changed.length > 0) {
              await adminApi.updateConfigs(
                changed.map((key) => ({ configKey: key, configValue: after[key] })),
              );
            }
          } catch {
            return false;
          } finally {
            await queryClient.invalidateQueries({ queryKey: adminQueryKeys.configs('platform') });
          }
          if (changed.length === 0) {
            void message.info(t('admin.config.nothingChanged'));
            return true;
          }
          void message.success({
            content: (
              <span data-testid="platform-saved">
                {t('admin.config.saved')}{' '}
                <Button size="small" icon={<ReloadOutlined />} onClick={() => window.location.reload()}>
                  {t('admin.config.reloadNow')}
                </Button>
              </span>
            ),
            duration: 8,
          });
          return true;
        }}
      >
        <ProFormDependency name={['systemName']}>
          {({ systemName }: { systemName?: string }) => (
            <ProFormText
              name="systemName"
              label={t('admin.config.systemName')}
              tooltip={t('admin.config.systemNameHint')}
              rules={[{ required: true, whitespace: true, max: 64, message: t('admin.config.textRule') }]}
              // The stored name may be a translation key (menu.system.name): say what the header shows.
              extra={
                systemName && shownAs(systemName) !== systemName ? (
                  <span data-testid="platform-systemName-shown">
                    {t('admin.config.systemNameShownAs', { name: shownAs(systemName) })}
                  </span>
                ) : undefined
              }
            />
          )}
        </ProFormDependency>
        <ProFormText
          name="systemTitle"
          label={t('admin.config.systemTitle')}
          rules={[{ required: true, whitespace: true, max: 64, message: t('admin.config.textRule') }]}
          fieldProps={{ 'data-testid': 'platform-systemTitle' } as object}
        />
        <ProFormText name="logo" label={t('admin.config.logo')} />
        <ProFormRadio.Group
          name="logoTitleMode"
          label={t('admin.config.logoTitleMode')}
          options={(modes.data && modes.data.length > 0
            ? modes.data.map((m) => ({ value: m.value ?? m.code, name: m.name }))
            : ['1', '2', '3'].map((v) => ({ value: v, name: v }))
          ).map(({ value, name }) => ({ value, label: optionLabel('logoTitleModes', value, name) }))}
        />
        <ProFormSwitch name="noticeIcon" label={t('admin.config.noticeIcon')} />
        <ProFormSwitch
          name="bigScreen"
          label={t('admin.config.bigScreen')}
          tooltip={t('admin.config.bigScreenHint')}
        />
        <ProFormSelect
          name="cityCode"
          label={t('admin.config.cityCode')}
          rules={[{ required: true, message: t('admin.config.cityCodeRequired') }]}
          options={(cities.data && cities.data.length > 0
            ? cities.data.map((c) => ({ value: c.value ?? c.code, name: c.name }))
            : ['fz', 'hefei', 'tm166'].map((v) => ({ value: v, name: v }))
          ).map(({ value, name }) => {
            const label = optionLabel('cityCodes', value, name);
            return { value, label: label === value ? label : `${label} (${value})` };
          })}
        />
        <ProFormList
          name="systemList"
          label={t('admin.config.systemList')}
          tooltip={t('admin.config.systemListHint')}
          creatorButtonProps={{ creatorButtonText: t('admin.config.addSystem') }}
          copyIconProps={false}
        >
          <ProForm.Group>
            <ProFormText
              name="name"
              placeholder={t('admin.config.systemLinkName')}
              rules={[
                { required: true, whitespace: true, message: t('admin.config.systemLinkNameRequired') },
              ]}
            />
            <ProFormText
              name="url"
              placeholder={t('admin.config.systemLinkUrl')}
              rules={[{ required: true, whitespace: true, message: t('admin.config.systemLinkUrlRequired') }]}
            />
          </ProForm.Group>
        </ProFormList>
      </ProForm>
    </Card>
  );
}
