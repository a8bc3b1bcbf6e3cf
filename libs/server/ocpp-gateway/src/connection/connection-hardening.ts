import type { RPCClient, RPCServer } from 'ocpp-rpc';
import type { WebSocket, WebSocketServer } from 'ws';

type CloseOptions = Parameters<RPCClient['close']>[0];

/**
 * ocpp-rpc's `RPCClient.close()` ends with `events.once(ws, 'close')`, which rejects when the socket
 * emits 'error' before 'close'. That happens when a pile keeps sending after the close began: a frame
 * over the size limit makes ws emit `RangeError: Max payload size exceeded` (and close with 1009). The
 * rejected promise escapes wherever close() is not awaited with a catch, and ocpp-rpc itself calls it
 * that way (closing after too many bad messages, or when an answer cannot be sent), as does
 * `RPCServer.close()`. An unhandled rejection ends the process, so this wraps the connection's close()
 * so that it never rejects: the error is reported and the close resolves as abnormal (1006).
 */
export function closeNeverRejects(client: RPCClient, onError: (error: unknown) => void): void {
  const close = client.close.bind(client);
  client.close = (options?: CloseOptions) =>
    close(options).catch((error: unknown) => {
      onError(error);
      return { code: 1006, reason: error instanceof Error ? error.message : String(error) };
    });
}

/**
 * Give every WebSocket the server creates an 'error' listener from its first moment. ocpp-rpc adds
 * one when it wraps the socket in a client, but not to a socket it refuses after the upgrade (the
 * server is closing): an 'error' event without a listener is thrown, and would end the process.
 */
export function listenForSocketErrors(server: RPCServer, onError: (error: Error) => void): void {
  const wss = (server as unknown as { _wss?: WebSocketServer })._wss;
  if (!wss)
    throw new Error('ocpp-rpc internals changed: RPCServer._wss not found (see connection-hardening.ts)');
  wss.prependListener('connection', (ws: WebSocket) => ws.on('error', onError));
}
