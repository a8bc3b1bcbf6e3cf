import { InMemoryTable } from '@voltdepot/server-testing';
import { IdentityErrorCodes } from '@voltdepot/shared-contracts';
import type { DictFields, DictRow } from './dict.repository';
import { DictionariesService, type DictStore } from './dictionaries.service';

/** The dictionary table: types (no parent) and their items; a code is unique among its siblings. */
class FakeDicts implements DictStore {
  readonly rows = new InMemoryTable<DictRow>({ sys_dict_code_uq: (d) => [d.parentId, d.code] });

  async tree(typeCode?: string) {
    const type = this.rows.find((d) => d.kind === 'type' && d.code === typeCode);
    return typeCode === undefined
      ? this.rows.filter()
      : this.rows.filter((d) => d.id === type?.id || (type !== undefined && d.parentId === type.id));
  }
  async byId(id: number) {
    return this.rows.get(id) ?? null;
  }
  async insert(f: DictFields) {
    return this.rows.insert(f).id;
  }
  async update(id: number, f: DictFields) {
    this.rows.update(id, f);
  }
  async hasChildren(id: number) {
    return this.rows.filter((d) => d.parentId === id).length > 0;
  }
  async delete(id: number) {
    this.rows.delete(id);
  }
}

function setup() {
  const repo = new FakeDicts();
  return { repo, service: new DictionariesService(repo) };
}

describe('DictionariesService', () => {
  it('makes an entry without a parent a type, one with a parent an item whose value defaults to its code', async () => {
    const { service } = setup();
    const type = await service.create({ code: 'station_type', name: 'Station type' });
    const item = await service.create({ parentId: type.id, code: '100', name: 'Bus' });
    expect(type).toMatchObject({ kind: 'type', value: null, enabled: true, children: [] });
    expect(item).toMatchObject({ kind: 'item', parentId: type.id, value: '100' });
  });

  it.each([
    ['a missing parent', () => 99, IdentityErrorCodes.DictNotFound, 'Unknown dictionary entry 99'],
    ['an item as parent', (item: number) => item, IdentityErrorCodes.DictBadParent, 'Not a type'],
  ])('puts no item under %s', async (_case, parent, code, message) => {
    const { service, repo } = setup();
    const type = await service.create({ code: 'station_type', name: 'Station type' });
    const item = await service.create({ parentId: type.id, code: '100', name: 'Bus' });
    await expect(service.create({ parentId: parent(item.id), code: 'x', name: 'X' })).rejects.toMatchObject({
      code,
      details: [{ field: 'parentId', message }],
    });
    expect(repo.rows.size).toBe(2);
  });

  it('refuses a code its siblings have, naming a type or an item (409 on code)', async () => {
    const { service } = setup();
    const type = await service.create({ code: 'station_type', name: 'Station type' });
    await service.create({ parentId: type.id, code: '100', name: 'Bus' });
    await expect(service.create({ code: 'station_type', name: 'Again' })).rejects.toMatchObject({
      code: IdentityErrorCodes.DictCodeTaken,
      message: "Dictionary type 'station_type' already exists",
    });
    await expect(service.create({ parentId: type.id, code: '100', name: 'Again' })).rejects.toMatchObject({
      code: IdentityErrorCodes.DictCodeTaken,
      message: "Item '100' already exists in this type",
    });
  });

  it('lists only the enabled items of a type, and a missing type is a 404', async () => {
    const { service } = setup();
    const type = await service.create({ code: 'pay_status', name: 'Pay status' });
    await service.create({ parentId: type.id, code: '0', name: 'Unpaid' });
    await service.create({ parentId: type.id, code: '3', name: 'Abnormal', enabled: false });
    expect((await service.items('pay_status')).map((i) => i.code)).toEqual(['0']);
    await expect(service.items('nothing')).rejects.toMatchObject({ code: IdentityErrorCodes.DictNotFound });
  });

  it('deletes no type that still has items (409)', async () => {
    const { service, repo } = setup();
    const type = await service.create({ code: 'pay_status', name: 'Pay status' });
    const item = await service.create({ parentId: type.id, code: '0', name: 'Unpaid' });
    await expect(service.remove(type.id)).rejects.toMatchObject({
      code: IdentityErrorCodes.DictHasChildren,
      httpStatus: 409,
    });
    await service.remove(item.id);
    await service.remove(type.id);
    expect(repo.rows.size).toBe(0);
  });
});
