import { SmsProviders, type ChannelType } from '@voltdepot/shared-contracts';
import { z } from 'zod';

/** What a masked credential comes back as; sent back, it keeps the stored value. */
export const SECRET_MASK = '******';

const text = (max = 200) => z.string().trim().max(max, `must be at most ${max} characters`);
const secret = text(500);
function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
const httpUrl = text(2000).refine(isHttpUrl, 'must be an http(s) URL');
/** A webhook URL carries the robot's token: masked like a credential, so the mask is also accepted. */
const webhook = text(2000).refine((v) => v === SECRET_MASK || isHttpUrl(v), 'must be an http(s) URL');
/** A port, as a number or its digits. */
const port = z.unknown().transform((value, ctx) => {
  const n = typeof value === 'string' && /^\s*\d{1,5}\s*$/.test(value) ? Number(value) : value;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 65535) return n;
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a port number' });
  return z.NEVER;
});

/**
 * The settings each channel's sender reads (channels/*), per SMS provider; every one optional (a sender
 * names a missing one when it sends), no other key, no nested value.
 */
const SETTINGS = {
  ALIYUN: z.object({
    accessKeyId: text(),
    accessKeySecret: secret,
    signName: text(),
    endpoint: text(),
    protocol: z.enum(['http', 'https']),
  }),
  TENCENT: z.object({
    secretId: text(),
    secretKey: secret,
    sdkAppId: text(),
    signName: text(),
    region: text(64),
    endpoint: text(),
    protocol: z.enum(['http://', 'https://']),
  }),
  EMAIL: z.object({
    host: text(),
    port,
    secure: z.boolean(),
    ignoreTLS: z.boolean(),
    user: text(),
    password: secret,
    from: text(),
  }),
  WECHAT: z.object({ webhook }),
  DDTALK: z.object({ webhook, secret, messageUrl: httpUrl, picUrl: httpUrl }),
  WEBSOCKET: z.object({}),
} satisfies Record<Exclude<ChannelType, 'SMS'> | (typeof SmsProviders)[number], z.AnyZodObject>;

/** The schema of a config's settings, or a message for a channel and provider that has none. */
export function channelSettingsSchema(
  channel: ChannelType,
  provider: string | null | undefined,
): z.ZodTypeAny | string {
  if (channel !== 'SMS') return SETTINGS[channel].partial().strict();
  const sms = SmsProviders.find((p) => p === provider?.trim().toUpperCase());
  return sms === undefined
    ? `must be ${SmsProviders.join(' or ')} for an SMS configuration`
    : SETTINGS[sms].partial().strict();
}

/**
 * The settings a sender connects to (robot webhooks, the SMTP server, an SMS endpoint), as
 * `[setting, host]`: the outbound rules check them when the config is saved. A masked webhook is the
 * stored one, checked when it was saved and again at every send.
 */
export function outboundSettingHosts(
  channel: ChannelType,
  settings: Record<string, unknown>,
): [string, string][] {
  const hosts: [string, string][] = [];
  const add = (key: string, hostOf: (value: string) => string) => {
    const value = settings[key];
    if (typeof value !== 'string' || value === '' || value === SECRET_MASK) return;
    try {
      hosts.push([key, hostOf(value)]);
    } catch {
      // Not a URL: the settings schema has already said so.
    }
  };
  const urlHost = (value: string) => new URL(value.includes('://') ? value : `https://${value}`).hostname;
  switch (channel) {
    case 'WECHAT':
    case 'DDTALK':
      add('webhook', urlHost);
      break;
    case 'EMAIL':
      add('host', (value) => value);
      break;
    case 'SMS':
      add('endpoint', urlHost);
      break;
    case 'WEBSOCKET':
      break;
  }
  return hosts;
}
