import { Inject, Injectable } from '@nestjs/common';
import { ACCESS_TOKEN_VERIFIER, AccessTokenVerifier, AuthException } from '@voltdepot/server-core';
import {
  AuthErrorCodes,
  type RequiredEnrolmentResult,
  SessionTokens,
  TotpEnrolment,
} from '@voltdepot/shared-contracts';
import { LogRepository } from '../logs/log.repository';
import { PasswordHasher } from '../shared/password-hasher';
import { UserRecord, UserRepository } from '../users/user.repository';
import type { LoginDto } from './auth.dto';
import { CaptchaService } from './captcha.service';
import { LoginThrottleService } from './login-throttle.service';
import { SessionService } from './session.service';
import { AdminTotpPolicy } from './admin-totp.policy';
import { ticketInvalid, TotpEnrolmentTickets } from './totp-enrolment';
import { totpInvalid, TotpService } from './totp.service';

export type ClientInfo = { ip: string; userAgent: string | null };

@Injectable()
export class AuthService {
  constructor(
    private readonly captcha: CaptchaService,
    private readonly throttle: LoginThrottleService,
    private readonly sessions: SessionService,
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly logs: LogRepository,
    private readonly totp: TotpService,
    private readonly adminTotp: AdminTotpPolicy,
    private readonly tickets: TotpEnrolmentTickets,
    @Inject(ACCESS_TOKEN_VERIFIER) private readonly verifier: AccessTokenVerifier,
  ) {}

  /**
   * Order: lockout (429) -> captcha (400, consumed) -> credentials (422) -> account enabled (422)
   * -> second factor when enrolled (422 AUTH_TOTP_REQUIRED / AUTH_TOTP_INVALID) -> an administrator
   * without one while it is mandatory gets no session but an enrolment ticket
   * (422 AUTH_TOTP_ENROLMENT_REQUIRED).
   */
  async login(dto: LoginDto, client: ClientInfo): Promise<SessionTokens> {
    await this.throttle.assertAllowed(dto.username, client.ip);
    try {
      await this.captcha.verify(dto.captchaId, dto.captchaCode);
    } catch (error) {
      await this.logLogin(dto.username, null, false, 'captcha', client);
      throw error;
    }
    const user = await this.users.findByUsername(dto.username);
    const passwordOk = await this.hasher.verify(user?.passwordHash, dto.password);
    if (user === null || !passwordOk) {
      await this.throttle.recordFailure(dto.username, client.ip);
      await this.logLogin(dto.username, user?.id ?? null, false, 'bad credentials', client);
      throw new AuthException(AuthErrorCodes.InvalidCredentials, 'Wrong user name or password', [
        { field: 'username', message: 'Wrong user name or password' },
        { field: 'password', message: 'Wrong user name or password' },
      ]);
    }
    if (!user.enabled) {
      await this.logLogin(user.username, user.id, false, 'disabled', client);
      throw new AuthException(
        AuthErrorCodes.AccountDisabled,
        'This account is disabled; contact an administrator',
      );
    }
    if (user.totpEnabled) {
      if (dto.totpCode === undefined || dto.totpCode === '') {
        await this.logLogin(user.username, user.id, false, 'totp required', client);
        throw new AuthException(
          AuthErrorCodes.TotpRequired,
          'Enter the code from your authenticator app (or a recovery code)',
          [{ field: 'totpCode', message: 'Required for this account' }],
        );
      }
      if (!(await this.totp.check(user, dto.totpCode))) {
        await this.throttle.recordFailure(dto.username, client.ip);
        await this.logLogin(user.username, user.id, false, 'totp invalid', client);
        throw totpInvalid();
      }
    } else if (await this.adminTotp.requiresTotp(user.id)) {
      await this.logLogin(user.username, user.id, false, 'totp enrolment required', client);
      throw new AuthException(
        AuthErrorCodes.TotpEnrolmentRequired,
        'Two-factor authentication is mandatory for administrators: set it up to finish signing in',
        await this.tickets.issue(user.id),
      );
    }
    return this.finishSignIn(user, null, client);
  }

  /** Step 1 of the enrolment a sign-in asked for: the secret and its QR code. */
  async startRequiredEnrolment(enrolmentToken: string): Promise<TotpEnrolment> {
    const user = await this.enrollingUser(enrolmentToken);
    return this.totp.enroll(user.id);
  }

  /**
   * Step 2: a first code from the authenticator turns TOTP on; the sign-in then completes with a full
   * session and the recovery codes. Wrong codes count against the ticket (and the account's lockout).
   */
  async completeRequiredEnrolment(
    enrolmentToken: string,
    code: string,
    client: ClientInfo,
  ): Promise<RequiredEnrolmentResult> {
    const user = await this.enrollingUser(enrolmentToken);
    await this.throttle.assertAllowed(user.username, client.ip);
    let activation;
    try {
      activation = await this.totp.activate(user.id, code);
    } catch (error) {
      if (error instanceof AuthException && error.code === AuthErrorCodes.TotpInvalid) {
        await this.tickets.recordFailure(enrolmentToken);
        await this.throttle.recordFailure(user.username, client.ip);
        await this.logLogin(user.username, user.id, false, 'totp invalid', client);
      }
      throw error;
    }
    // This request turned TOTP on (activation takes the pending secret once), so it answers with the
    // recovery codes even when a double-click's twin, finding TOTP on, has ended the ticket already:
    // refusing here would leave TOTP on with codes nobody was shown.
    await this.tickets.consume(enrolmentToken);
    const session = await this.finishSignIn(user, 'totp enrolled', client);
    return { recoveryCodes: activation.recoveryCodes, session };
  }

  /**
   * A session continues only for an enabled user, and, while TOTP is mandatory for administrators,
   * only for an administrator who has it: the others sign in again and enrol.
   */
  refresh(refreshToken: string): Promise<SessionTokens> {
    return this.sessions.rotate(refreshToken, async (userId) => {
      const user = await this.users.findById(userId);
      if (user === null || !user.enabled) return null;
      if (!user.totpEnabled && (await this.adminTotp.requiresTotp(user.id))) return null;
      return { id: user.id, username: user.username };
    });
  }

  /** The user a live ticket names, still enabled and still without TOTP; otherwise the ticket ends. */
  private async enrollingUser(enrolmentToken: string): Promise<UserRecord> {
    const user = await this.users.findById(await this.tickets.userOf(enrolmentToken));
    if (user === null || !user.enabled || user.totpEnabled) {
      await this.tickets.consume(enrolmentToken);
      throw ticketInvalid();
    }
    return user;
  }

  private async finishSignIn(
    user: { id: number; username: string },
    reason: string | null,
    client: ClientInfo,
  ): Promise<SessionTokens> {
    await this.throttle.recordSuccess(user.username);
    const tokens = await this.sessions.start({ id: user.id, username: user.username });
    await this.users.touchLastLogin(user.id);
    await this.logLogin(user.username, user.id, true, reason, client);
    return tokens;
  }

  /** Ends the session named by the refresh token and/or the bearer token; silently ignores invalid ones. */
  async logout(refreshToken: string | undefined, bearer: string | undefined): Promise<void> {
    if (refreshToken !== undefined) {
      const session = await this.sessions.sessionOfRefreshToken(refreshToken);
      if (session !== null) await this.sessions.revoke(session.sessionId, session.userId);
    }
    if (bearer !== undefined) {
      const claims = await this.verifier.verify(bearer).catch(() => null);
      if (claims !== null) await this.sessions.revoke(claims.sessionId, claims.userId);
    }
  }

  private async logLogin(
    username: string,
    userId: number | null,
    success: boolean,
    reason: string | null,
    client: ClientInfo,
  ): Promise<void> {
    await this.logs.addLogin({
      username,
      userId,
      success,
      reason,
      ip: client.ip,
      userAgent: client.userAgent,
    });
  }
}
