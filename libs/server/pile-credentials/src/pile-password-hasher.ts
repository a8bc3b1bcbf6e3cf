import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import argon2 from 'argon2';

/** OCPP 1.6 security whitepaper: a pile's Basic-auth password has 16 to 40 characters. */
export const PILE_PASSWORD_MIN_LENGTH = 16;
export const PILE_PASSWORD_MAX_LENGTH = 40;

/** A key of the pile password hash: `id` is written into every hash made with it (rotation). */
export type PilePasswordKey = { id: string; secret: string };

/** Key ids: short, and free of the `$` that separates the fields of a stored hash. */
export const PILE_PASSWORD_KEY_ID = /^[A-Za-z0-9_-]{1,16}$/;

/**
 * What a stored hash is: made with the current key (`current`), with another key this process still
 * knows (`previous-key`), an argon2 hash from before the keyed hash (`argon2`), or nothing this process
 * can verify (`unusable`: malformed, or made with a key it does not have), which matches no password.
 */
export type StoredPasswordForm = 'current' | 'previous-key' | 'argon2' | 'unusable';

export type PilePasswordCheck = {
  match: boolean;
  /** On a match with an outdated form: the password stored in the current form, to write instead. */
  rehash?: string;
};

const SCHEME = 'hmac-sha256';
const VERSION = 'v1';
const SALT_BYTES = 16;
const MAC_BYTES = 32;

/**
 * Pile passwords, stored as `hmac-sha256$v1$<key id>$<salt>$<mac>` (salt and mac base64url): the mac is
 * HMAC-SHA256 under a secret key (PILE_PASSWORD_KEY, shared by the api, which writes hashes, and the
 * gateway, which verifies them) of a random salt followed by the password's bytes.
 *
 * A pile password is a machine secret (16-40 random characters), not a human one: nothing is gained by a
 * deliberately slow hash, whose cost made a thousand piles connecting at once queue for minutes. The key
 * is what protects the stored hashes: without it a copy of the database allows no guess to be checked.
 * The salt keeps equal passwords from having equal hashes. Hashes from before (argon2id) still verify,
 * and `verify` says when a matching password should be stored again in the current form; so do hashes
 * made with a previous key while it is configured, which is how the key is rotated.
 */
export class PilePasswordHasher {
  private readonly keys = new Map<string, Buffer>();

  constructor(
    private readonly current: PilePasswordKey,
    previous: readonly PilePasswordKey[] = [],
  ) {
    for (const key of [current, ...previous]) {
      if (!PILE_PASSWORD_KEY_ID.test(key.id)) throw new Error(`invalid pile password key id '${key.id}'`);
      if (!this.keys.has(key.id)) this.keys.set(key.id, Buffer.from(key.secret, 'utf8'));
    }
  }

  /** The stored form of `password` (a fresh salt each time). */
  hash(password: string | Buffer): string {
    const salt = randomBytes(SALT_BYTES);
    const mac = this.mac(this.keys.get(this.current.id)!, salt, password);
    return [SCHEME, VERSION, this.current.id, salt.toString('base64url'), mac.toString('base64url')].join(
      '$',
    );
  }

  formOf(stored: string): StoredPasswordForm {
    if (stored.startsWith('$argon2')) return 'argon2';
    const parsed = this.parse(stored);
    if (!parsed) return 'unusable';
    return parsed.keyId === this.current.id ? 'current' : 'previous-key';
  }

  /** Verifying this form takes an argon2 computation (tens to hundreds of ms on libuv's thread pool). */
  isSlow(stored: string): boolean {
    return this.formOf(stored) === 'argon2';
  }

  /** Constant-time for keyed hashes; argon2 hashes are verified by argon2 (fails closed when malformed). */
  async verify(stored: string, password: string | Buffer): Promise<PilePasswordCheck> {
    const form = this.formOf(stored);
    let match: boolean;
    if (form === 'unusable') match = false;
    else if (form === 'argon2') match = await argon2.verify(stored, password).catch(() => false);
    else {
      const { keyId, salt, mac } = this.parse(stored)!;
      match = timingSafeEqual(this.mac(this.keys.get(keyId)!, salt, password), mac);
    }
    return match && form !== 'current' ? { match, rehash: this.hash(password) } : { match };
  }

  private mac(key: Buffer, salt: Buffer, password: string | Buffer): Buffer {
    return createHmac('sha256', key).update(salt).update(password).digest();
  }

  private parse(stored: string): { keyId: string; salt: Buffer; mac: Buffer } | undefined {
    const parts = stored.split('$');
    if (parts.length !== 5 || parts[0] !== SCHEME || parts[1] !== VERSION || !this.keys.has(parts[2]))
      return undefined;
    const salt = Buffer.from(parts[3], 'base64url');
    const mac = Buffer.from(parts[4], 'base64url');
    if (salt.length !== SALT_BYTES || mac.length !== MAC_BYTES) return undefined;
    return { keyId: parts[2], salt, mac };
  }
}
