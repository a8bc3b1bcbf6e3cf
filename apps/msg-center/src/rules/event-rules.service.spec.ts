import { MsgErrorCodes } from '@voltdepot/shared-contracts';
import { ruleReferences } from '../fixtures/rule-references';
import type { EventRuleBody } from './event-rule.dto';
import type { EventRuleRow } from './event-rule.repository';
import { EventRulesService } from './event-rules.service';

const { templates, groups } = ruleReferences;

function setup() {
  const rows = new Map<number, EventRuleBody>();
  const rules = {
    page: async () => ({ list: [], total: 0 }),
    find: async (id: number) =>
      rows.has(id) ? ({ id, ...rows.get(id) } as unknown as EventRuleRow) : undefined,
    insert: async (body: EventRuleBody) => {
      rows.set(rows.size + 1, body);
      return rows.size;
    },
    update: async (id: number, body: EventRuleBody) => void rows.set(id, body),
    delete: async (id: number) => void rows.delete(id),
  };
  return {
    rows,
    service: new EventRulesService(rules, templates, groups, { BUSINESS_TIME_ZONE: 'Asia/Shanghai' }),
  };
}

const aRule = (o: Partial<EventRuleBody> = {}): EventRuleBody => ({
  name: 'Abnormal stop',
  eventType: 'transaction.stopped',
  condition: { stopKind: 'abnormal' },
  templateId: 1,
  groupId: 1,
  channels: [4],
  level: 'IMPORTANT',
  enabled: true,
  ...o,
});

describe('EventRulesService', () => {
  it('stores a rule whose template and group exist, or that names neither', async () => {
    const { service, rows } = setup();
    await service.create(aRule(), 'admin');
    await service.create(aRule({ templateId: null, groupId: undefined }), 'admin');
    expect(rows.size).toBe(2);
  });

  it.each([
    ['a template', { templateId: 7 }, MsgErrorCodes.TemplateNotFound],
    ['a group', { groupId: 7 }, MsgErrorCodes.GroupNotFound],
  ])('refuses %s that does not exist (404), on create and on update', async (_case, body, code) => {
    const { service, rows } = setup();
    await expect(service.create(aRule(body), 'admin')).rejects.toMatchObject({ code, httpStatus: 404 });
    const { id } = await service.create(aRule(), 'admin');
    await expect(service.update(id, aRule(body), 'admin')).rejects.toMatchObject({ code });
    expect(rows.get(id)).toEqual(aRule());
  });

  it('answers 404 for a rule that does not exist', async () => {
    const { service } = setup();
    await expect(service.update(5, aRule(), 'admin')).rejects.toMatchObject({
      code: MsgErrorCodes.EventNotFound,
    });
    await expect(service.delete(5)).rejects.toMatchObject({ code: MsgErrorCodes.EventNotFound });
  });
});
