import { sms } from 'tencentcloud-sdk-nodejs-sms';
import { ChannelError } from '../channel-sender';
import { tencentTemplateParamSet } from './tencent-params';

export const TENCENT_ENDPOINT = 'sms.tencentcloudapi.com';

export type TencentSmsSettings = {
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  signName: string;
  region?: string;
  /** Default sms.tencentcloudapi.com; tests point it at a local server. */
  endpoint?: string;
  /** Default https://. */
  protocol?: 'http://' | 'https://';
};

/** Tencent Cloud SMS (2021-01-11 SendSms, signed TC3-HMAC-SHA256 by the SDK). */
export async function sendTencentSms(
  settings: TencentSmsSettings,
  phone: string,
  templateId: string,
  params: Record<string, string>,
): Promise<string> {
  const client = new sms.v20210111.Client({
    credential: { secretId: settings.secretId, secretKey: settings.secretKey },
    region: settings.region ?? 'ap-guangzhou',
    profile: {
      httpProfile: {
        endpoint: settings.endpoint ?? TENCENT_ENDPOINT,
        protocol: settings.protocol ?? 'https://',
        reqTimeout: 10,
      },
    },
  });
  const templateParams = tencentTemplateParamSet(params);
  let status: { Code?: string; Message?: string; SerialNo?: string } | undefined;
  try {
    const res = await client.SendSms({
      PhoneNumberSet: [phone.startsWith('+') ? phone : `+86${phone}`],
      SmsSdkAppId: settings.sdkAppId,
      SignName: settings.signName,
      TemplateId: templateId,
      TemplateParamSet: templateParams,
    });
    status = res.SendStatusSet?.[0];
  } catch (error) {
    const e = error as { code?: string; message?: string };
    throw new ChannelError(`Tencent SMS ${e.code ?? 'error'}: ${e.message ?? ''}`.slice(0, 500));
  }
  if (status?.Code !== 'Ok')
    throw new ChannelError(`Tencent SMS ${status?.Code ?? 'error'}: ${status?.Message ?? ''}`);
  return status.SerialNo ?? '';
}
