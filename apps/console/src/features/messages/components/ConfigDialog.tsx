import {
  ModalForm,
  ProFormDependency,
  ProFormDigit,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
} from '@ant-design/pro-components';
import type { ChannelType, MsgConfigDto } from '@voltdepot/shared-contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { msgApi, type ConfigRequest } from '../api/msgApi';
import type { DictOption, MsgDictCode } from '../hooks/useDictionaries';
import { useSave } from '../hooks/useSave';
import { channelSettings, providerDictionary, settingsOf, type SettingField } from './channelSettings';

export type ConfigFormValues = {
  configName?: string;
  fullName?: string;
  channel?: ChannelType;
  provider?: string;
  status?: string;
  settings?: Record<string, unknown>;
};

export type ConfigDialogProps = {
  config?: MsgConfigDto;
  options: Record<MsgDictCode, DictOption[]>;
  onClose: () => void;
  onSaved: () => void;
};

function settingLabel(t: TFunction, key: string): string {
  const translate = t as unknown as (k: string, o: { defaultValue: string }) => string;
  return translate(`messages.config.setting.${key}`, { defaultValue: key });
}

function SettingInput({ field }: { field: SettingField }) {
  const { t } = useTranslation();
  const label = settingLabel(t, field.key);
  const name = ['settings', field.key];
  const rules = field.required
    ? [{ required: true, message: t('messages.config.settingRequired', { name: label }) }]
    : [];
  switch (field.kind) {
    case 'switch':
      return <ProFormSwitch name={name} label={label} />;
    case 'number':
      return (
        <ProFormDigit
          name={name}
          label={label}
          rules={rules}
          min={1}
          max={65535}
          fieldProps={{ precision: 0, placeholder: field.placeholder }}
        />
      );
    case 'secret':
      return (
        <ProFormText.Password
          name={name}
          label={label}
          rules={rules}
          tooltip={t('messages.config.secretHint')}
          fieldProps={{ autoComplete: 'new-password', placeholder: field.placeholder }}
        />
      );
    default:
      return <ProFormText name={name} label={label} rules={rules} placeholder={field.placeholder} />;
  }
}

/** A channel configuration: name, message type, channel and sub-provider, and the channel's settings. */
export function ConfigDialog({ config, options, onClose, onSaved }: ConfigDialogProps) {
  const { t } = useTranslation();
  const save = useSave('config');
  const mode = config ? 'edit' : 'add';

  const finish = async (values: ConfigFormValues) => {
    const dictionary = providerDictionary(values.channel);
    const provider = dictionary ? (values.provider ?? null) : null;
    const body: ConfigRequest = {
      configName: values.configName?.trim() ?? '',
      fullName: values.fullName?.trim() ?? '',
      channel: values.channel as ChannelType,
      provider,
      settings: settingsOf(values.channel, provider, values.settings),
      status: values.status,
    };
    const saved = config
      ? await save('edit', () => msgApi.configs.update(config.id, body))
      : await save('add', () => msgApi.configs.create(body));
    if (saved) onSaved();
    return saved;
  };

  return (
    <ModalForm<ConfigFormValues>
      open
      title={t(mode === 'add' ? 'messages.config.addTitle' : 'messages.config.editTitle')}
      width="70%"
      layout="horizontal"
      labelCol={{ flex: '160px' }}
      // English labels are longer than the Chinese ones: they wrap instead of being cut off.
      labelWrap
      initialValues={
        config
          ? {
              configName: config.configName,
              fullName: config.fullName,
              channel: config.channel,
              provider: config.provider ?? undefined,
              status: config.status,
              settings: config.settings,
            }
          : { status: 'DEFAULT', settings: {} }
      }
      modalProps={{ maskClosable: false, okText: t('common.ok'), cancelText: t('common.cancel') }}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      onFinish={finish}
    >
      <ProFormText
        name="configName"
        label={t('messages.config.configName')}
        fieldProps={{ maxLength: 100 }}
        rules={[{ required: true, whitespace: true, message: t('messages.config.configNameRequired') }]}
      />
      <ProFormText
        name="fullName"
        label={t('messages.config.fullName')}
        fieldProps={{ maxLength: 200 }}
        rules={[{ required: true, whitespace: true, message: t('messages.config.fullNameRequired') }]}
      />
      <ProFormSelect
        name="channel"
        label={t('messages.config.channel')}
        options={options.channel_type}
        rules={[{ required: true, message: t('messages.config.channelRequired') }]}
      />
      <ProFormDependency name={['channel']}>
        {({ channel }: ConfigFormValues) => {
          const dictionary = providerDictionary(channel);
          if (!dictionary) return null;
          return (
            <ProFormSelect
              name="provider"
              label={t(channel === 'SMS' ? 'messages.config.smsProvider' : 'messages.config.ddtalkType')}
              options={options[dictionary]}
              rules={[{ required: true, message: t('messages.config.providerRequired') }]}
            />
          );
        }}
      </ProFormDependency>
      <ProFormSelect name="status" label={t('messages.common.status')} options={options.msg_status} />
      <ProFormDependency name={['channel', 'provider']}>
        {({ channel, provider }: ConfigFormValues) =>
          channelSettings(channel, provider).map((field) => <SettingInput key={field.key} field={field} />)
        }
      </ProFormDependency>
    </ModalForm>
  );
}
