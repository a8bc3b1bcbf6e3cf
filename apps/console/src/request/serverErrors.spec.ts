// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { localeMessages, type Locale } from '../locales';
import { memoryStorage } from '../test/memoryStorage';
import { createRequestClient } from './client';
import { localizeServerError, RequestError } from './errors';
import { createSessionStore } from './session';

function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** A client wired like the console's: language from the runtime, error codes translated in it. */
function setup(language: { current: Locale }, answer: () => Response) {
  const headers: Headers[] = [];
  const notify = { error: vi.fn(), warning: vi.fn() };
  const client = createRequestClient({
    baseUrl: '',
    session: createSessionStore(memoryStorage()),
    notify,
    translate: (key) => key,
    navigate: vi.fn(),
    reload: vi.fn(),
    currentPath: () => '/home',
    fetch: (async (_input: RequestInfo | URL, init?: RequestInit) => {
      headers.push(new Headers(init?.headers));
      return answer();
    }) as typeof fetch,
    language: () => language.current,
    errorMessage: (body) => localizeServerError(body, localeMessages[language.current].serverError),
  });
  return { client, headers, notify };
}

describe('Accept-Language', () => {
  it('every call sends the current language, and follows a switch', async () => {
    const language = { current: 'zh-CN' as Locale };
    const { client, headers } = setup(language, () => json({ ok: true }, 200));
    await client.get('/api/a');
    await client.post('/ms/m1/msg/inbox/read', [1]);
    language.current = 'en-US';
    await client.delete('/api/station/1');
    expect(headers.map((h) => h.get('Accept-Language'))).toEqual(['zh-CN', 'zh-CN', 'en-US']);
  });

  it('a caller can still send its own', async () => {
    const { client, headers } = setup({ current: 'zh-CN' }, () => json({ ok: true }, 200));
    await client.get('/api/a', { headers: { 'Accept-Language': 'en-US' } });
    expect(headers[0].get('Accept-Language')).toBe('en-US');
  });
});

describe('server error messages in the user language', () => {
  const wrongPassword = { code: 'AUTH_WRONG_PASSWORD', message: 'Wrong password', correlationId: 'c1' };

  it.each([
    ['zh-CN', '原密码错误'],
    ['en-US', 'The current password is wrong'],
  ] as const)('a known code is shown translated (%s) and the rejection carries it', async (locale, text) => {
    const { client, notify } = setup({ current: locale }, () => json(wrongPassword, 422));
    const error = await client.put('/api/user/password', {}).catch((reason: unknown) => reason);
    expect(notify.error).toHaveBeenCalledExactlyOnceWith(text, 5);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ status: 422, message: text, body: wrongPassword });
  });

  it("an unknown code falls back to the server's message", async () => {
    const body = { code: 'SOMETHING_NEW', message: 'Something new went wrong', correlationId: 'c2' };
    const { client, notify } = setup({ current: 'zh-CN' }, () => json(body, 422));
    await expect(client.get('/api/a')).rejects.toBeInstanceOf(RequestError);
    expect(notify.error).toHaveBeenCalledExactlyOnceWith('Something new went wrong', 5);
  });

  it('an error with no message still passes through as undefined (spec §8), code or not', async () => {
    const { client, notify } = setup({ current: 'zh-CN' }, () => json({ code: 'FORBIDDEN' }, 403));
    await expect(client.get('/api/a')).resolves.toBeUndefined();
    expect(notify.error).not.toHaveBeenCalled();
  });
});

describe('localizeServerError', () => {
  const zh = localeMessages['zh-CN'].serverError;
  const en = localeMessages['en-US'].serverError;
  const validation = {
    code: 'VALIDATION_FAILED',
    message: 'name: Required; phone: Invalid',
    details: [
      { field: 'name', message: 'Required' },
      { field: 'phone', message: 'Invalid' },
    ],
  };

  it('names the failing fields of a validation error', () => {
    expect(localizeServerError(validation, zh)).toBe('请求参数有误：name, phone');
    expect(localizeServerError(validation, en)).toBe('Invalid request: name, phone');
    expect(localizeServerError({ code: 'VALIDATION_FAILED', message: 'bad' }, zh)).toBe('请求参数有误');
  });

  it("keeps the server's specifics beside the text of a generic code", () => {
    const body = { code: 'ASSET_RULE_VIOLATED', message: 'Only a card reported lost can be replaced' };
    expect(localizeServerError(body, zh)).toBe('不符合业务规则：Only a card reported lost can be replaced');
    expect(localizeServerError(body, en)).toBe(
      'Not allowed by a business rule: Only a card reported lost can be replaced',
    );
  });

  it.each([
    [
      { code: 'FORBIDDEN', message: 'no permission for go_screen' },
      '没有操作权限',
      'You do not have permission for this',
    ],
    [
      { code: 'MSG_TEMPLATE_IN_USE', message: 'in use' },
      '消息模板正在使用，不能删除',
      'The template is in use and cannot be deleted',
    ],
    [{ code: 'OCPP_PILE_OFFLINE', message: 'offline' }, '充电桩离线', 'The pile is offline'],
  ])('translates %o', (body, zhText, enText) => {
    expect(localizeServerError(body, zh)).toBe(zhText);
    expect(localizeServerError(body, en)).toBe(enText);
  });

  it("shows an IC-card refusal as its area message (details.messageCode) in the user's language", () => {
    const refused = {
      code: 'ICCARD_ACTION_REFUSED',
      message: 'The ID number does not match the registered one: verification failed',
      details: { messageCode: 'idNumberMismatch' },
    };
    expect(localizeServerError(refused, zh)).toBe('证件号码与登记的不一致，验证失败');
    expect(localizeServerError(refused, en)).toBe(
      'The ID number does not match the registered one: verification failed',
    );
    // A code the console does not know: the error code's own text.
    expect(localizeServerError({ ...refused, details: { messageCode: 'nonsense' } }, zh)).toBe(
      '卡片状态异常，不能继续操作',
    );
  });

  it('gives undefined without a known code (the caller shows the server message)', () => {
    expect(localizeServerError({ message: 'x' }, zh)).toBeUndefined();
    expect(localizeServerError({ code: 'toString', message: 'x' }, zh)).toBeUndefined();
    expect(localizeServerError(undefined, zh)).toBeUndefined();
  });
});
