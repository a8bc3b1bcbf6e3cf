import { Inject, Injectable } from '@nestjs/common';
import { AuthException } from '@voltdepot/server-core';
import { AuthErrorCodes, TotpActivation, TotpEnrolment } from '@voltdepot/shared-contracts';
import type Redis from 'ioredis';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { authenticator } from 'otplib';
import QRCode from 'qrcode';
import { IDENTITY_OPTIONS, IDENTITY_REDIS, IdentityOptions } from '../identity.options';
import { PasswordHasher } from '../shared/password-hasher';
import { UserRecord, UserRepository } from '../users/user.repository';
import { AdminTotpPolicy } from './admin-totp.policy';

const PENDING_SECONDS = 600;
const RECOVERY_CODES = 10;
/** One step either side absorbs clock drift between phone and server. */
const totp = authenticator.clone({ window: 1 });

/**
 * Optional TOTP second factor. Enrolment is two steps (enrol -> scan -> activate with a first code), so
 * a user never ends up with a factor they cannot produce. Secrets are encrypted at rest (AES-256-GCM);
 * recovery codes are stored as SHA-256 hashes and work once. A code is accepted once (replay-protected).
 */
@Injectable()
export class TotpService {
  private readonly key: Buffer;

  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly adminTotp: AdminTotpPolicy,
    @Inject(IDENTITY_REDIS) private readonly redis: Redis,
    @Inject(IDENTITY_OPTIONS) private readonly options: IdentityOptions,
  ) {
    this.key = createHash('sha256').update(options.totpEncryptionKey).digest();
  }

  async enroll(userId: number): Promise<TotpEnrolment> {
    const user = await this.user(userId);
    if (user.totpEnabled) throw state('Two-factor authentication is already on; disable it first');
    const secret = totp.generateSecret();
    await this.redis.set(pendingKey(userId), secret, 'EX', PENDING_SECONDS);
    const otpauthUrl = totp.keyuri(user.username, this.options.totpIssuer, secret);
    return { secret, otpauthUrl, qrCode: await QRCode.toDataURL(otpauthUrl) };
  }

  /**
   * Turns TOTP on with the first code. The pending secret is taken atomically (GETDEL), so of two
   * simultaneous activations (a double click) one wins and the other is told there is no enrolment:
   * the recovery codes the winner shows are the ones stored. A wrong code puts the secret back.
   */
  async activate(userId: number, code: string): Promise<TotpActivation> {
    const secret = await this.redis.getdel(pendingKey(userId));
    if (secret === null) throw state('No enrolment in progress (or it expired); start again');
    if (!totp.verify({ token: code, secret })) {
      await this.redis.set(pendingKey(userId), secret, 'EX', PENDING_SECONDS, 'NX');
      throw invalid();
    }
    const recoveryCodes = Array.from({ length: RECOVERY_CODES }, () => {
      const raw = randomBytes(5).toString('hex');
      return `${raw.slice(0, 5)}-${raw.slice(5)}`;
    });
    await this.users.setTotp(userId, this.encrypt(secret), recoveryCodes.map(digest));
    return { recoveryCodes };
  }

  async disable(userId: number, password: string): Promise<void> {
    const user = await this.user(userId);
    if (!(await this.hasher.verify(user.passwordHash, password))) {
      throw new AuthException(AuthErrorCodes.WrongPassword, 'Current password is wrong', [
        { field: 'password', message: 'Current password is wrong' },
      ]);
    }
    if (await this.adminTotp.requiresTotp(userId)) {
      throw state('Two-factor authentication is mandatory for administrators and cannot be turned off');
    }
    await this.users.setTotp(userId, null, []);
  }

  /** Administrators reset a user's second factor (lost phone). */
  async reset(userId: number): Promise<void> {
    await this.users.setTotp(userId, null, []);
  }

  /** For sign-in: true when `code` is a fresh valid TOTP or an unused recovery code of the user. */
  async check(user: UserRecord, code: string): Promise<boolean> {
    if (!user.totpEnabled || user.totpSecret === null) return true;
    const trimmed = code.trim();
    if (/^\d{6}$/.test(trimmed)) {
      if (!totp.verify({ token: trimmed, secret: this.decrypt(user.totpSecret) })) return false;
      // Accept each code once: a code seen on the wire cannot be replayed within its validity.
      const fresh = await this.redis.set(`totp-used:${user.id}:${trimmed}`, '1', 'EX', 120, 'NX');
      return fresh === 'OK';
    }
    return this.users.consumeRecoveryCode(user.id, digest(trimmed.toLowerCase()));
  }

  private async user(userId: number): Promise<UserRecord> {
    const user = await this.users.findById(userId);
    if (user === null) throw new AuthException(AuthErrorCodes.TokenRevoked, 'Session has been revoked');
    return user;
  }

  private encrypt(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64')).join('.');
  }

  private decrypt(stored: string): string {
    const [iv, tag, data] = stored.split('.').map((p) => Buffer.from(p, 'base64'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  }
}

const pendingKey = (userId: number) => `totp-pending:${userId}`;
const digest = (code: string) => createHash('sha256').update(code).digest('hex');
const state = (message: string) => new AuthException(AuthErrorCodes.TotpState, message);
const invalid = () =>
  new AuthException(AuthErrorCodes.TotpInvalid, 'The authentication code is wrong or was already used', [
    { field: 'totpCode', message: 'Wrong or already used code' },
  ]);
export const totpInvalid = invalid;
