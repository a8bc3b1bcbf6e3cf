import argon2 from 'argon2';
import { PilePasswordHasher } from './pile-password-hasher';

const KEY_1 = { id: '1', secret: 'first-key-of-at-least-thirty-two-characters' };
const KEY_2 = { id: '2', secret: 'second-key-of-at-least-thirty-two-characters' };
const PASSWORD = 'pile-secret-0123456789';

describe('PilePasswordHasher', () => {
  const hasher = new PilePasswordHasher(KEY_1);

  it('stores hmac-sha256$v1$<key id>$<salt>$<mac>, with a fresh salt each time', () => {
    const a = hasher.hash(PASSWORD);
    const b = hasher.hash(PASSWORD);
    expect(a).toMatch(/^hmac-sha256\$v1\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(PASSWORD);
  });

  it('verifies the right password, as a string or as the bytes a pile sends', async () => {
    const stored = hasher.hash(PASSWORD);
    expect(await hasher.verify(stored, PASSWORD)).toEqual({ match: true });
    expect(await hasher.verify(stored, Buffer.from(PASSWORD))).toEqual({ match: true });
  });

  it.each([
    ['another password', PASSWORD.replace('0', '1')],
    ['a prefix of it', PASSWORD.slice(0, -1)],
    ['the password followed by more', `${PASSWORD}x`],
    ['nothing', ''],
  ])('refuses %s', async (_name, candidate) => {
    expect(await hasher.verify(hasher.hash(PASSWORD), candidate)).toEqual({ match: false });
  });

  it('binds the hash to its key: another key refuses it, whatever the key id says', async () => {
    const stored = hasher.hash(PASSWORD);
    const impostor = new PilePasswordHasher({ id: '1', secret: KEY_2.secret });
    expect(await impostor.verify(stored, PASSWORD)).toEqual({ match: false });
  });

  it.each([
    ['made with a key it does not have', new PilePasswordHasher(KEY_2).hash(PASSWORD)],
    ['with a truncated mac', hasher.hash(PASSWORD).slice(0, -2)],
    ['with a field too many', `${hasher.hash(PASSWORD)}$x`],
    ['of another version', hasher.hash(PASSWORD).replace('$v1$', '$v2$')],
    ['empty', ''],
    ['a bare argon2 prefix', '$argon2id$broken'],
  ])('a stored hash %s matches no password', async (_name, stored) => {
    expect(await hasher.verify(stored, PASSWORD)).toEqual({ match: false });
  });

  describe('rehash decision', () => {
    it('a hash in the current form is kept', async () => {
      const stored = hasher.hash(PASSWORD);
      expect(hasher.formOf(stored)).toBe('current');
      expect((await hasher.verify(stored, PASSWORD)).rehash).toBeUndefined();
    });

    it('an argon2 hash that matches is to be stored again under the current key; one that does not, not', async () => {
      const legacy = await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 1024, timeCost: 2 });
      expect(hasher.formOf(legacy)).toBe('argon2');
      expect(hasher.isSlow(legacy)).toBe(true);
      const check = await hasher.verify(legacy, PASSWORD);
      expect(check.match).toBe(true);
      expect(hasher.formOf(check.rehash!)).toBe('current');
      expect(await hasher.verify(check.rehash!, PASSWORD)).toEqual({ match: true });
      expect(await hasher.verify(legacy, 'not-the-password-0000')).toEqual({ match: false });
    });

    it('rotation: a hash made with a previous key verifies and is to be stored again under the new one', async () => {
      const rotated = new PilePasswordHasher(KEY_2, [KEY_1]);
      const old = hasher.hash(PASSWORD);
      expect(rotated.formOf(old)).toBe('previous-key');
      expect(rotated.isSlow(old)).toBe(false);
      const check = await rotated.verify(old, PASSWORD);
      expect(check.match).toBe(true);
      expect(check.rehash).toMatch(/^hmac-sha256\$v1\$2\$/);
      expect(await rotated.verify(old, 'not-the-password-0000')).toEqual({ match: false });
    });
  });

  it('refuses a key id that would break the stored format', () => {
    expect(() => new PilePasswordHasher({ id: 'a$b', secret: KEY_1.secret })).toThrow(/key id/);
  });
});
