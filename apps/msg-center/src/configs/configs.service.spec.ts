import { OutboundAllowList, OutboundGuard, ValidationException } from '@voltdepot/server-core';
import { InMemoryTable } from '@voltdepot/server-testing';
import { MsgErrorCodes } from '@voltdepot/shared-contracts';
import type { ConfigBody } from './config.dto';
import type { ConfigRow } from './config.repository';
import { ConfigsService, SECRET_MASK, type ConfigStore } from './configs.service';

class FakeConfigs implements ConfigStore {
  readonly rows = new InMemoryTable<ConfigRow>();
  readonly templatesUsing = new Map<number, number>();

  async page() {
    return { list: this.rows.filter(), total: this.rows.size };
  }
  async list() {
    return this.rows.filter();
  }
  async find(id: number) {
    return this.rows.get(id);
  }
  async nameTaken(name: string, exceptId?: number) {
    return this.rows.filter((c) => c.configName === name && c.id !== exceptId).length > 0;
  }
  async insert(body: ConfigBody, username: string) {
    const at = new Date('2026-11-20T00:00:00Z');
    return this.rows.insert({
      ...body,
      provider: body.provider ?? null,
      status: body.status ?? 'UP',
      username,
      createTime: at,
      updateTime: at,
    }).id;
  }
  async update(id: number, body: ConfigBody, username: string) {
    this.rows.update(id, { ...body, provider: body.provider ?? null, username });
  }
  async usedByTemplates(id: number) {
    return this.templatesUsing.get(id) ?? 0;
  }
  async delete(id: number) {
    this.rows.delete(id);
  }
}

const smtp = (settings: Record<string, unknown>, configName = 'Depot mail'): ConfigBody => ({
  configName,
  fullName: 'Alarm mails',
  channel: 'EMAIL',
  settings,
});

function setup() {
  const repo = new FakeConfigs();
  // Every name is public except `intranet`, which only the network's own machines should reach.
  const outbound = new OutboundGuard(new OutboundAllowList([]), async (host) => [
    { address: host === 'intranet' ? '10.0.0.9' : '93.184.216.34', family: 4 },
  ]);
  return { repo, service: new ConfigsService(repo, { BUSINESS_TIME_ZONE: 'Asia/Shanghai' }, outbound) };
}

describe('ConfigsService', () => {
  it('masks every credential in what it answers, leaving the other settings and empty secrets', async () => {
    const { service } = setup();
    await service.create(
      smtp({
        host: 'smtp.example.com',
        password: 'p4ss',
        accessKey: 'AK',
        webhook: 'https://x/?access_token=t',
        token: '',
      }),
      'admin',
    );
    const [dto] = await service.list({});
    expect(dto.settings).toEqual({
      host: 'smtp.example.com',
      password: SECRET_MASK,
      accessKey: SECRET_MASK,
      webhook: SECRET_MASK,
      token: '',
    });
  });

  it('keeps a stored secret when the mask is sent back, and takes a new one when given', async () => {
    const { service, repo } = setup();
    const { id } = await service.create(smtp({ host: 'a', password: 'old', secret: 'keep' }), 'admin');
    await service.update(id, smtp({ host: 'b', password: 'new', secret: SECRET_MASK }), 'admin');
    expect(repo.rows.get(id)?.settings).toEqual({ host: 'b', password: 'new', secret: 'keep' });
  });

  it('refuses a name another configuration has (409), but not its own', async () => {
    const { service } = setup();
    const { id } = await service.create(smtp({}), 'admin');
    await expect(service.create(smtp({}), 'admin')).rejects.toMatchObject({
      code: MsgErrorCodes.ConfigNameTaken,
      httpStatus: 409,
    });
    await expect(service.update(id, smtp({ host: 'x' }), 'admin')).resolves.toEqual({ id });
  });

  it('deletes no configuration a template sends through (409, naming how many)', async () => {
    const { service, repo } = setup();
    const { id } = await service.create(smtp({}), 'admin');
    repo.templatesUsing.set(id, 2);
    await expect(service.delete(id)).rejects.toMatchObject({
      code: MsgErrorCodes.ConfigInUse,
      details: { templates: 2 },
    });
    expect(repo.rows.get(id)).toBeDefined();
  });

  it.each<[string, ConfigBody, string, string]>([
    [
      'a robot webhook at the metadata service',
      {
        configName: 'r',
        fullName: 'r',
        channel: 'WECHAT',
        settings: { webhook: 'http://169.254.169.254/x' },
      },
      'settings.webhook',
      '169.254.169.254 is a link-local, metadata or reserved address, where outbound requests never go',
    ],
    [
      'an SMTP server inside the network nobody allowed',
      smtp({ host: 'intranet' }),
      'settings.host',
      'intranet resolves to 10.0.0.9, an internal address: an administrator must allow intranet (OUTBOUND_ALLOWED_HOSTS)',
    ],
    [
      'an SMS endpoint on loopback',
      {
        configName: 's',
        fullName: 's',
        channel: 'SMS',
        provider: 'ALIYUN',
        settings: { endpoint: '127.0.0.1:8080' },
      },
      'settings.endpoint',
      '127.0.0.1 is an internal address: an administrator must allow 127.0.0.1 (OUTBOUND_ALLOWED_HOSTS)',
    ],
  ])('refuses %s (400 naming the setting), on create and update', async (_case, body, field, message) => {
    const { service, repo } = setup();
    const expected = new ValidationException([{ field, message }]);
    await expect(service.create(body, 'admin')).rejects.toEqual(expected);
    const { id } = await service.create({ ...body, settings: {} }, 'admin');
    await expect(service.update(id, body, 'admin')).rejects.toEqual(expected);
    expect(repo.rows.get(id)?.settings).toEqual({});
  });

  it('takes back a masked webhook without checking it again (it was checked when saved)', async () => {
    const { service } = setup();
    const robot = (webhook: string): ConfigBody => ({
      configName: 'r',
      fullName: 'r',
      channel: 'WECHAT',
      settings: { webhook },
    });
    const { id } = await service.create(
      robot('https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k'),
      'admin',
    );
    await expect(service.update(id, robot(SECRET_MASK), 'admin')).resolves.toEqual({ id });
  });

  it('answers 404 for a configuration that does not exist', async () => {
    const { service } = setup();
    await expect(service.update(9, smtp({}), 'admin')).rejects.toMatchObject({
      code: MsgErrorCodes.ConfigNotFound,
      httpStatus: 404,
    });
    await expect(service.delete(9)).rejects.toMatchObject({ code: MsgErrorCodes.ConfigNotFound });
  });
});
