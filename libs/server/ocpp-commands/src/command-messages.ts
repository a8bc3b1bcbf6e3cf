/** A command published on the owning replica's command channel. */
export type RemoteCommandRequest = {
  requestId: string;
  /** The sender's reply channel. */
  replyTo: string;
  chargePointId: string;
  action: string;
  params: unknown;
  /** How long the owning replica waits for the pile. */
  timeoutMs: number;
};

/**
 * The owning replica's answer: the pile's confirmation, or the gateway's error code (OCPP_PILE_OFFLINE,
 * OCPP_PILE_CALL_ERROR, ...) with its message and details.
 */
export type RemoteCommandReply =
  | { requestId: string; ok: true; response: unknown }
  | { requestId: string; ok: false; code: string; message: string; details?: unknown };

type Fields = Record<string, unknown>;

function objectOf(message: string): Fields | undefined {
  try {
    const value: unknown = JSON.parse(message);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Fields)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The request in a command channel message; undefined for anything else (it is ignored). */
export function parseCommandRequest(message: string): RemoteCommandRequest | undefined {
  const m = objectOf(message);
  if (
    !m ||
    typeof m['requestId'] !== 'string' ||
    typeof m['replyTo'] !== 'string' ||
    typeof m['chargePointId'] !== 'string' ||
    typeof m['action'] !== 'string' ||
    typeof m['timeoutMs'] !== 'number'
  )
    return undefined;
  return {
    requestId: m['requestId'],
    replyTo: m['replyTo'],
    chargePointId: m['chargePointId'],
    action: m['action'],
    params: m['params'],
    timeoutMs: m['timeoutMs'],
  };
}

/** The reply in a reply channel message; undefined for anything else (it is ignored). */
export function parseCommandReply(message: string): RemoteCommandReply | undefined {
  const m = objectOf(message);
  if (!m || typeof m['requestId'] !== 'string') return undefined;
  if (m['ok'] === true) return { requestId: m['requestId'], ok: true, response: m['response'] };
  if (m['ok'] === false && typeof m['code'] === 'string' && typeof m['message'] === 'string')
    return {
      requestId: m['requestId'],
      ok: false,
      code: m['code'],
      message: m['message'],
      details: m['details'],
    };
  return undefined;
}
