import { ValidationException } from '@voltdepot/server-core';
import { InMemoryTable } from '@voltdepot/server-testing';
import { MsgErrorCodes } from '@voltdepot/shared-contracts';
import type { ConfigRow } from '../configs/config.repository';
import { MsgException } from '../shared/msg.exception';
import type { TemplateBody } from './template.dto';
import type { TemplateRow } from './template.repository';
import { TemplatesService, type TemplateStore } from './templates.service';

type Stored = TemplateBody & { id: number; content: string | null; username: string; editable: boolean };

class FakeTemplates implements TemplateStore {
  readonly rows = new InMemoryTable<Stored>();
  readonly rulesUsing = new Map<number, number>();

  async page() {
    return { list: [], total: 0 };
  }
  async byConfig() {
    return [];
  }
  async find(id: number) {
    const row = this.rows.get(id);
    return row && ({ ...row, configName: '', fullName: '', channel: 'EMAIL' } as unknown as TemplateRow);
  }
  async insert(body: TemplateBody & { content: string | null }, username: string) {
    return this.rows.insert({ ...body, username, editable: body.editable ?? true }).id;
  }
  async update(id: number, body: TemplateBody & { content: string | null }, username: string) {
    this.rows.update(id, { ...body, username });
  }
  async usedByRules(id: number) {
    return this.rulesUsing.get(id) ?? 0;
  }
  async delete(id: number) {
    this.rows.delete(id);
  }
}

/** Configuration 1 sends mail, 2 sends Tencent SMS; others do not exist. */
const CONFIGS: Record<number, Pick<ConfigRow, 'channel' | 'provider'>> = {
  1: { channel: 'EMAIL', provider: null },
  2: { channel: 'SMS', provider: 'TENCENT' },
};
const configs = {
  get: async (id: number) => {
    if (!CONFIGS[id])
      throw new MsgException(MsgErrorCodes.ConfigNotFound, `Message config ${id} does not exist`);
    return { id, ...CONFIGS[id] } as ConfigRow;
  },
};

const aTemplate = (o: Partial<TemplateBody> = {}): TemplateBody => ({
  configId: 1,
  templateName: 'Stop notice',
  type: '2',
  content: '<p>Pile ${chargePointId} stopped</p>',
  parameters: {},
  ...o,
});

function setup() {
  const repo = new FakeTemplates();
  return { repo, service: new TemplatesService(repo, configs, { BUSINESS_TIME_ZONE: 'Asia/Shanghai' }) };
}

describe('TemplatesService', () => {
  it('stores rich-text content without anything that runs', async () => {
    const { service, repo } = setup();
    const { id } = await service.create(
      aTemplate({
        content: '<p onclick="x()">Hi<script>alert(1)</script><a href="javascript:x()">a</a></p>',
      }),
      'admin',
    );
    expect(repo.rows.get(id)?.content).toBe('<p>Hi<a>a</a></p>');
  });

  it('sends through a configuration that exists only (404)', async () => {
    const { service, repo } = setup();
    await expect(service.create(aTemplate({ configId: 9 }), 'admin')).rejects.toMatchObject({
      code: MsgErrorCodes.ConfigNotFound,
      httpStatus: 404,
    });
    expect(repo.rows.size).toBe(0);
  });

  it('takes Tencent SMS parameters numbered 1..n', async () => {
    const { service } = setup();
    const parameters = { '1': 'chargePointId', '2': 'reason' };
    await expect(service.create(aTemplate({ configId: 2, parameters }), 'admin')).resolves.toEqual({ id: 1 });
  });

  it.each([
    ['named', { pile: 'chargePointId' }],
    ['numbered with a gap', { '1': 'chargePointId', '3': 'reason' }],
  ])('refuses Tencent SMS parameters %s (400 on parameters)', async (_case, parameters) => {
    const { service, repo } = setup();
    const refused = service.create(aTemplate({ configId: 2, parameters }), 'admin');
    await expect(refused).rejects.toBeInstanceOf(ValidationException);
    await expect(refused).rejects.toMatchObject({
      fields: [expect.objectContaining({ field: 'parameters' })],
    });
    expect(repo.rows.size).toBe(0);
  });

  it('names mail parameters freely', async () => {
    const { service } = setup();
    await expect(
      service.create(aTemplate({ parameters: { pile: 'chargePointId' } }), 'admin'),
    ).resolves.toEqual({ id: 1 });
  });

  it.each([
    [
      'a template that is not editable',
      (r: FakeTemplates, id: number) => r.rows.update(id, { editable: false }),
      MsgErrorCodes.TemplateNotEditable,
    ],
    [
      'a template rules send',
      (r: FakeTemplates, id: number) => r.rulesUsing.set(id, 1),
      MsgErrorCodes.TemplateInUse,
    ],
  ])('deletes no %s (409)', async (_case, given, code) => {
    const { service, repo } = setup();
    const { id } = await service.create(aTemplate(), 'admin');
    given(repo, id);
    await expect(service.delete(id)).rejects.toMatchObject({ code, httpStatus: 409 });
    expect(repo.rows.get(id)).toBeDefined();
  });
});
