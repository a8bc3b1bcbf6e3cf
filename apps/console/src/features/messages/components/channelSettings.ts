import type { ChannelType } from '@voltdepot/shared-contracts';

export type SettingField = {
  key: string;
  kind: 'text' | 'secret' | 'number' | 'switch';
  /** The channel's sender cannot work without it. */
  required?: boolean;
  placeholder?: string;
};

const ALIYUN: SettingField[] = [
  { key: 'accessKeyId', kind: 'text', required: true },
  { key: 'accessKeySecret', kind: 'secret', required: true },
  { key: 'signName', kind: 'text', required: true },
  { key: 'endpoint', kind: 'text', placeholder: 'dysmsapi.aliyuncs.com' },
  { key: 'protocol', kind: 'text', placeholder: 'https' },
];

const TENCENT: SettingField[] = [
  { key: 'secretId', kind: 'text', required: true },
  { key: 'secretKey', kind: 'secret', required: true },
  { key: 'sdkAppId', kind: 'text', required: true },
  { key: 'signName', kind: 'text', required: true },
  { key: 'region', kind: 'text', placeholder: 'ap-guangzhou' },
  { key: 'endpoint', kind: 'text', placeholder: 'sms.tencentcloudapi.com' },
  { key: 'protocol', kind: 'text', placeholder: 'https://' },
];

const EMAIL: SettingField[] = [
  { key: 'host', kind: 'text', required: true, placeholder: 'smtp.example.com' },
  { key: 'port', kind: 'number', required: true, placeholder: '465' },
  { key: 'secure', kind: 'switch' },
  { key: 'ignoreTLS', kind: 'switch' },
  { key: 'user', kind: 'text' },
  { key: 'password', kind: 'secret' },
  { key: 'from', kind: 'text', required: true, placeholder: 'noreply@example.com' },
];

// The webhook URL carries the robot's token: a credential, masked by msg-center like the others.
const ROBOT: SettingField[] = [{ key: 'webhook', kind: 'secret', required: true, placeholder: 'https://' }];

const DINGTALK: SettingField[] = [
  ...ROBOT,
  { key: 'secret', kind: 'secret' },
  { key: 'messageUrl', kind: 'text', placeholder: 'https://' },
  { key: 'picUrl', kind: 'text', placeholder: 'https://' },
];

/**
 * The settings each channel's sender reads in msg-center (SMS per provider, SMTP, robot webhooks).
 * Credentials come back masked ('******'); sending the mask back keeps the stored value.
 */
export function channelSettings(
  channel: ChannelType | undefined,
  provider: string | null | undefined,
): SettingField[] {
  switch (channel) {
    case 'SMS':
      return provider === 'TENCENT' ? TENCENT : provider === 'ALIYUN' ? ALIYUN : [];
    case 'EMAIL':
      return EMAIL;
    case 'WECHAT':
      return ROBOT;
    case 'DDTALK':
      return DINGTALK;
    default:
      return [];
  }
}

/** Which sub-provider dictionary a channel takes (SMS: ALIYUN/TENCENT, DingTalk: TEXT/LINK). */
export function providerDictionary(channel: ChannelType | undefined): 'sms_provider' | 'ddtalk_type' | null {
  if (channel === 'SMS') return 'sms_provider';
  if (channel === 'DDTALK') return 'ddtalk_type';
  return null;
}

/** The settings object sent to the server: only the channel's fields, blanks left out. */
export function settingsOf(
  channel: ChannelType | undefined,
  provider: string | null | undefined,
  values: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const field of channelSettings(channel, provider)) {
    const value = values?.[field.key];
    if (field.kind === 'switch') {
      result[field.key] = value === true;
      continue;
    }
    if (value === undefined || value === null) continue;
    const text = typeof value === 'string' ? value.trim() : value;
    if (text === '') continue;
    result[field.key] = field.kind === 'number' ? Number(text) : text;
  }
  return result;
}
