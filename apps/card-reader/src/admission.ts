import { isIP } from 'node:net';

/** Is the peer on this machine? 127.0.0.0/8, ::1, and IPv4 loopback mapped into IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIP(v4) === 4) return v4.split('.')[0] === '127';
  return address === '::1' || address === '0:0:0:0:0:0:0:1';
}

export type Admission = { ok: true } | { ok: false; reason: string };

/**
 * Who may talk to the reader: a program on this machine, and of the web pages only the console's. A
 * browser always names the page's origin, so a page of any other site (or a sandboxed `null` one) is
 * refused even though the browser runs here; a local program sends no Origin and is let in.
 */
export function admit(
  peer: { remoteAddress: string | undefined; origin: string | undefined },
  allowedOrigins: readonly string[],
): Admission {
  if (!isLoopbackAddress(peer.remoteAddress)) {
    return { ok: false, reason: `peer ${peer.remoteAddress ?? 'unknown'} is not on this machine` };
  }
  if (peer.origin !== undefined && !allowedOrigins.includes(peer.origin)) {
    return { ok: false, reason: `origin ${peer.origin} is not allowed` };
  }
  return { ok: true };
}
