import Dysmsapi, { SendSmsRequest } from '@alicloud/dysmsapi20170525';
import * as OpenApi from '@alicloud/openapi-client';
import * as TeaUtil from '@alicloud/tea-util';
import { ChannelError } from '../channel-sender';

export const ALIYUN_ENDPOINT = 'dysmsapi.aliyuncs.com';

export type AliyunSmsSettings = {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  /** Default dysmsapi.aliyuncs.com; tests point it at a local server. */
  endpoint?: string;
  /** Default https. */
  protocol?: 'http' | 'https';
};

/** Aliyun SMS (dysmsapi 2017-05-25 SendSms, signed ACS3-HMAC-SHA256 by the SDK). */
export async function sendAliyunSms(
  settings: AliyunSmsSettings,
  phone: string,
  templateCode: string,
  params: Record<string, string>,
): Promise<string> {
  // The SDK accepts the openapi-client Config (same fields as its own openapi-core Config).
  const config = new OpenApi.Config({
    accessKeyId: settings.accessKeyId,
    accessKeySecret: settings.accessKeySecret,
    endpoint: settings.endpoint ?? ALIYUN_ENDPOINT,
    protocol: settings.protocol ?? 'https',
  });
  const client = new Dysmsapi(config as unknown as ConstructorParameters<typeof Dysmsapi>[0]);
  const runtime = new TeaUtil.RuntimeOptions({
    connectTimeout: 10_000,
    readTimeout: 10_000,
    autoretry: false,
  });
  let code: string | undefined;
  let message: string | undefined;
  let bizId: string | undefined;
  try {
    const res = await client.sendSmsWithOptions(
      new SendSmsRequest({
        phoneNumbers: phone,
        signName: settings.signName,
        templateCode,
        templateParam: JSON.stringify(params),
      }),
      runtime as unknown as Parameters<Dysmsapi['sendSmsWithOptions']>[1],
    );
    code = res.body?.code;
    message = res.body?.message;
    bizId = res.body?.bizId;
  } catch (error) {
    const e = error as { code?: string; message?: string; data?: { Message?: string } };
    throw new ChannelError(
      `Aliyun SMS ${e.code ?? 'error'}: ${e.data?.Message ?? e.message ?? ''}`.slice(0, 500),
    );
  }
  if (code !== 'OK') throw new ChannelError(`Aliyun SMS ${code ?? 'error'}: ${message ?? ''}`);
  return bizId ?? '';
}
