import { monitorStationTopic, type MonitorPush } from '@voltdepot/shared-contracts';
import { useEffect, useRef, useState } from 'react';
import {
  PUSH_CONNECTION_TIMEOUT_MS,
  PUSH_HEARTBEAT_MS,
  PUSH_RECONNECT_DELAY_MS,
  pushRuntime,
  pushUrl,
} from '../../../app/notice/pushClient';
import { useAccessToken } from '../../../app/session/useSession';
import { apiBaseUrl } from '../../../request';

export function parsePush(body: string): MonitorPush | undefined {
  try {
    const value = JSON.parse(body) as Partial<MonitorPush>;
    return typeof value.stationId === 'number' && Array.isArray(value.piles)
      ? (value as MonitorPush)
      : undefined;
  } catch {
    return undefined;
  }
}

export type MonitorPushHandlers = {
  onPush: (push: MonitorPush) => void;
  /**
   * Once the subscriptions are in place (the broker's receipt), on the first connection and after each
   * reconnection: changes made between the screen's last read and now were pushed to nobody, so read the
   * screen again.
   */
  onResync?: () => void;
};

let receiptSeq = 0;

/**
 * Live changes of these stations over the message centre's STOMP endpoint (`/topic/monitor/station/{id}`),
 * on a connection of its own while the screen is open (same URL, token and heart-beats as the console's
 * push client). Reports whether the connection is up.
 */
export function useMonitorPush(stationIds: readonly number[], handlers: MonitorPushHandlers): boolean {
  const token = useAccessToken();
  const [connected, setConnected] = useState(false);
  const latest = useRef(handlers);
  latest.current = handlers;
  const key = [...new Set(stationIds)].sort((a, b) => a - b).join(',');

  useEffect(() => {
    if (!token || key === '') return undefined;
    const ids = key.split(',').map(Number);
    const client = pushRuntime.createClient({
      brokerURL: pushUrl(apiBaseUrl, window.location),
      connectHeaders: { Authorization: `Bearer ${token}` },
      heartbeatIncoming: PUSH_HEARTBEAT_MS,
      heartbeatOutgoing: PUSH_HEARTBEAT_MS,
      connectionTimeout: PUSH_CONNECTION_TIMEOUT_MS,
      reconnectDelay: PUSH_RECONNECT_DELAY_MS,
      onConnect: () => {
        // The broker handles a connection's frames in order: the receipt of the last SUBSCRIBE means every
        // subscription is live, and only then is a read sure not to miss a change in between.
        const receipt = `monitor-subscribed-${++receiptSeq}`;
        client.watchForReceipt(receipt, () => {
          setConnected(true);
          latest.current.onResync?.();
        });
        ids.forEach((id, index) =>
          client.subscribe(
            monitorStationTopic(id),
            (message) => {
              const push = parsePush(message.body);
              if (push) latest.current.onPush(push);
            },
            index === ids.length - 1 ? { receipt } : {},
          ),
        );
      },
      onWebSocketClose: () => setConnected(false),
    });
    client.activate();
    return () => {
      setConnected(false);
      void client.deactivate();
    };
  }, [token, key]);

  return connected;
}
