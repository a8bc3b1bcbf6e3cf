import { AuthErrorCodes } from '@voltdepot/shared-contracts';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AuthException } from './auth.exception';

const ISSUER = 'voltdepot';
const AUDIENCE = 'voltdepot';
const ALGORITHM = 'HS256';
/** The shortest JWT secret accepted (characters). */
export const MIN_JWT_SECRET_LENGTH = 32;

/** The claims of a Voltdepot access token; `expiresAt` (epoch ms) is set on verified tokens. */
export type AccessTokenClaims = { userId: number; username: string; sessionId: string; expiresAt?: number };

export type SignedAccessToken = { token: string; expiresAt: number };

function keyOf(secret: string): Uint8Array {
  if (secret.length < MIN_JWT_SECRET_LENGTH) {
    throw new Error(`JWT secret must have at least ${MIN_JWT_SECRET_LENGTH} characters`);
  }
  return new TextEncoder().encode(secret);
}

/** Signs a short-lived HS256 access token. Only the identity area issues them. */
export async function signAccessToken(
  claims: AccessTokenClaims,
  secret: string,
  ttlSeconds: number,
  now: number = Date.now(),
): Promise<SignedAccessToken> {
  const iat = Math.floor(now / 1000);
  const exp = iat + ttlSeconds;
  const token = await new SignJWT({ name: claims.username, sid: claims.sessionId, typ: 'access' })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(keyOf(secret));
  return { token, expiresAt: exp * 1000 };
}

/** Verifies signature, issuer, audience and expiry; throws 401 AuthExceptions with a precise code. */
export async function verifyAccessToken(
  token: string,
  secret: string,
  now: number = Date.now(),
): Promise<AccessTokenClaims> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: new Date(now),
    });
    const userId = Number(payload.sub);
    if (
      payload['typ'] !== 'access' ||
      !Number.isSafeInteger(userId) ||
      typeof payload['sid'] !== 'string' ||
      typeof payload['name'] !== 'string'
    ) {
      throw new AuthException(AuthErrorCodes.TokenInvalid, 'Access token is invalid');
    }
    return {
      userId,
      username: payload['name'],
      sessionId: payload['sid'],
      ...(typeof payload.exp === 'number' ? { expiresAt: payload.exp * 1000 } : {}),
    };
  } catch (error) {
    if (error instanceof AuthException) throw error;
    if (error instanceof joseErrors.JWTExpired) {
      throw new AuthException(AuthErrorCodes.TokenExpired, 'Access token has expired');
    }
    throw new AuthException(AuthErrorCodes.TokenInvalid, 'Access token is invalid');
  }
}

/** Redis key (under the auth key prefix) that exists while a session is alive; deleting it revokes the session. */
export function sessionKey(sessionId: string): string {
  return `session:${sessionId}`;
}
