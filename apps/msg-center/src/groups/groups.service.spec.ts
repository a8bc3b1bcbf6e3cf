import { ValidationException } from '@voltdepot/server-core';
import { InMemoryTable } from '@voltdepot/server-testing';
import { MsgErrorCodes } from '@voltdepot/shared-contracts';
import type { GroupBody } from './group.dto';
import type { GroupRow } from './group.repository';
import { GroupsService, type GroupStore } from './groups.service';

/** Roles 1..4 and users 10..12 exist. */
const EXISTING = { ROLE: [1, 2, 3, 4], USER: [10, 11, 12] };

class FakeGroups implements GroupStore {
  readonly rows = new InMemoryTable<GroupRow>();
  readonly rulesUsing = new Map<number, number>();

  async page() {
    return { list: this.rows.filter(), total: this.rows.size };
  }
  async list() {
    return this.rows.filter();
  }
  async find(id: number) {
    return this.rows.get(id);
  }
  async nameTaken(name: string, exceptId = 0) {
    return this.rows.filter((g) => g.name === name && g.id !== exceptId).length > 0;
  }
  async insert(body: GroupBody, username: string) {
    const at = new Date('2026-11-20T00:00:00Z');
    return this.rows.insert({
      ...body,
      description: body.description ?? null,
      username,
      createTime: at,
      updateTime: at,
    }).id;
  }
  async update(id: number, body: GroupBody, username: string) {
    this.rows.update(id, { ...body, description: body.description ?? null, username });
  }
  async usedByRules(id: number) {
    return this.rulesUsing.get(id) ?? 0;
  }
  async delete(id: number) {
    this.rows.delete(id);
  }
  async missingMembers(type: 'ROLE' | 'USER', ids: number[]) {
    return ids.filter((id) => !EXISTING[type].includes(id));
  }
  async roleOptions() {
    return [];
  }
  async userOptions() {
    return [];
  }
}

const aGroup = (o: Partial<GroupBody> = {}): GroupBody => ({
  name: 'Night duty',
  type: 'ROLE',
  memberIds: [1, 2],
  ...o,
});

function setup() {
  const repo = new FakeGroups();
  return { repo, service: new GroupsService(repo, { BUSINESS_TIME_ZONE: 'Asia/Shanghai' }) };
}

describe('GroupsService', () => {
  it.each([
    ['roles', aGroup({ type: 'ROLE', memberIds: [1, 7, 8] }), 'unknown role id(s): 7, 8'],
    ['users', aGroup({ type: 'USER', memberIds: [10, 99] }), 'unknown user id(s): 99'],
  ])('refuses members that are no %s (400 on memberIds), storing nothing', async (_case, body, message) => {
    const { service, repo } = setup();
    const refused = service.create(body, 'admin');
    await expect(refused).rejects.toBeInstanceOf(ValidationException);
    await expect(refused).rejects.toMatchObject({ fields: [{ field: 'memberIds', message }] });
    expect(repo.rows.size).toBe(0);
  });

  it('takes a group of nobody (NONE) whatever ids it lists', async () => {
    const { service } = setup();
    await expect(service.create(aGroup({ type: 'NONE', memberIds: [999] }), 'admin')).resolves.toEqual({
      id: 1,
    });
  });

  it('refuses a name another group has (409), but not its own', async () => {
    const { service } = setup();
    const { id } = await service.create(aGroup(), 'admin');
    await expect(service.create(aGroup(), 'admin')).rejects.toMatchObject({
      code: MsgErrorCodes.GroupNameTaken,
      httpStatus: 409,
    });
    await expect(service.update(id, aGroup({ memberIds: [3] }), 'admin')).resolves.toEqual({ id });
  });

  it('deletes no group a rule sends to (409); a missing one is a 404', async () => {
    const { service, repo } = setup();
    const { id } = await service.create(aGroup(), 'admin');
    repo.rulesUsing.set(id, 2);
    await expect(service.delete(id)).rejects.toMatchObject({
      code: MsgErrorCodes.GroupInUse,
      httpStatus: 409,
    });
    await expect(service.delete(99)).rejects.toMatchObject({
      code: MsgErrorCodes.GroupNotFound,
      httpStatus: 404,
    });
  });
});
