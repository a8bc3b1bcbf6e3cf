import { InMemoryTable, inMemoryTransaction } from './in-memory-table';

type User = { id: number; username: string; email: string | null };
const users = () =>
  new InMemoryTable<User>({ sys_user_username_uq: (u) => u.username, email_uq: (u) => u.email });

describe('InMemoryTable', () => {
  it('numbers rows, hands out copies and filters in id order', () => {
    const table = users();
    const a = table.insert({ username: 'a', email: null });
    table.insert({ id: 10, username: 'b', email: null });
    expect(table.insert({ username: 'c', email: null }).id).toBe(11);
    a.username = 'changed';
    expect(table.get(1)?.username).toBe('a');
    expect(table.filter((u) => u.username !== 'b').map((u) => u.id)).toEqual([1, 11]);
  });

  it('refuses a duplicate key as PostgreSQL does, on insert and update; null keys never collide', () => {
    const table = users();
    table.insert({ username: 'a', email: null });
    const b = table.insert({ username: 'b', email: null });
    expect(() => table.insert({ username: 'a', email: 'x@y' })).toThrow(
      expect.objectContaining({ code: '23505', constraint: 'sys_user_username_uq' }),
    );
    expect(() => table.update(b.id, { username: 'a' })).toThrow(
      expect.objectContaining({ constraint: 'sys_user_username_uq' }),
    );
    expect(table.update(b.id, { username: 'b', email: null })).toEqual({
      id: b.id,
      username: 'b',
      email: null,
    });
  });

  it('undoes every write of a failed transaction and keeps those of a committed one', async () => {
    const table = users();
    await inMemoryTransaction([table], async () => table.insert({ username: 'kept', email: null }));
    await expect(
      inMemoryTransaction([table], async () => {
        table.insert({ username: 'lost', email: null });
        table.delete(1);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(table.filter().map((u) => u.username)).toEqual(['kept']);
    expect(table.insert({ username: 'next', email: null }).id).toBe(2);
  });
});
