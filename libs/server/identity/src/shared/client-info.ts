import type { HttpRequest } from '@voltdepot/server-core';

/** The client address Express resolved (honours `trust proxy` when the app sets it). */
export function clientIp(req: HttpRequest): string {
  const ip = (req as HttpRequest & { ip?: string }).ip ?? req.socket?.remoteAddress ?? 'unknown';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

export function userAgentOf(req: HttpRequest): string | null {
  const ua = req.headers['user-agent'];
  return typeof ua === 'string' ? ua : null;
}

export function bearerOf(req: HttpRequest): string | undefined {
  const header = req.headers.authorization;
  return typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1] : undefined;
}
