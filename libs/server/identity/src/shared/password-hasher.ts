import { Injectable } from '@nestjs/common';
import argon2 from 'argon2';

/** argon2id with the OWASP minimum parameters (19 MiB, 2 passes), so sign-in stays fast under load. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

@Injectable()
export class PasswordHasher {
  /** Verified against when the user does not exist, so both cases take the same time. */
  private dummyHash: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  async verify(hash: string | undefined, password: string): Promise<boolean> {
    if (hash === undefined) {
      this.dummyHash ??= argon2.hash('not-a-real-password', OPTIONS);
      await argon2.verify(await this.dummyHash, password).catch(() => false);
      return false;
    }
    return argon2.verify(hash, password).catch(() => false);
  }
}
