import { useQueryClient } from '@tanstack/react-query';
import type { InboxMessageDto, InboxPush } from '@voltdepot/shared-contracts';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { apiBaseUrl, sessionStore } from '../../request';
import { usePlatformSettings } from '../platform/PlatformSettingsContext';
import { useAccessToken } from '../session/useSession';
import { inboxApi as defaultInboxApi, inboxQueryKeys, type InboxApi } from './inboxApi';
import { openPushConnection, pushUrl } from './pushClient';
import { stopNoticesEnabled } from './stopNotice';
import { StopNoticeFeed } from './stopNoticeFeed';
import type { QueuedNotice } from './stopNoticeQueue';
import { StopNoticeStack } from './StopNoticeStack';

/** Whether this page was loaded with a stored access token (spec §4 stop-notice rule). */
const hadTokenOnLoad = Boolean(sessionStore.get()?.accessToken);

export type NoticeCenter = {
  /** The unread messages (from GET inbox/unread and the push topic). */
  unread: InboxMessageDto[];
  api: InboxApi;
  /** Local bookkeeping after messages were marked read or deleted; 'all' after mark-all. */
  forget: (ids: number[] | 'all') => void;
  /** Fetches the unread list again. */
  refresh: () => Promise<void>;
};

const NoticeCenterContext = createContext<NoticeCenter | null>(null);

export function useNoticeCenter(): NoticeCenter {
  const value = useContext(NoticeCenterContext);
  if (!value) throw new Error('useNoticeCenter outside NoticeProvider');
  return value;
}

export function applyInboxPush(current: InboxMessageDto[], push: InboxPush): InboxMessageDto[] {
  if (push.handler === 'inbox.unread') return push.data.filter((message) => !message.isRead);
  if (push.data.isRead || current.some((message) => message.id === push.data.id)) return current;
  return [push.data, ...current];
}

export type NoticeProviderProps = { children: ReactNode; api?: InboxApi };

/**
 * The message centre's push connection while signed in (spec §4): opened with the access token, topics
 * re-subscribed on reconnect, closed on sign-out; on connect it asks once for the unread messages. Also
 * shows the realtime stop notices (StopNoticeStack) and reads them aloud one at a time.
 */
export function NoticeProvider({ children, api = defaultInboxApi }: NoticeProviderProps) {
  const token = useAccessToken();
  const { cityCode } = usePlatformSettings();
  const queryClient = useQueryClient();
  const [unread, setUnread] = useState<InboxMessageDto[]>([]);
  const [stopQueue, setStopQueue] = useState<readonly QueuedNotice[]>([]);
  const feed = useRef<StopNoticeFeed | null>(null);

  const refresh = useCallback(async () => {
    const list = await api.unread().catch(() => undefined);
    if (list) setUnread(list.filter((message) => !message.isRead));
  }, [api]);

  // Latest callbacks for the long-lived connection.
  const latest = useRef({ refresh, queryClient });
  latest.current = { refresh, queryClient };

  const withStops = stopNoticesEnabled(hadTokenOnLoad, cityCode);

  // The stop notices outlive a token refresh (the connection reopens) but not the session.
  const signedIn = Boolean(token);
  useEffect(() => {
    if (!signedIn || !withStops) return undefined;
    const stops = new StopNoticeFeed();
    feed.current = stops;
    stops.subscribe(setStopQueue);
    return () => {
      stops.dispose();
      feed.current = null;
      setStopQueue([]);
    };
  }, [signedIn, withStops]);

  useEffect(() => {
    if (!token) {
      setUnread([]);
      return undefined;
    }
    return openPushConnection({
      url: pushUrl(apiBaseUrl, window.location),
      accessToken: token,
      onInbox: (push) => {
        setUnread((current) => applyInboxPush(current, push));
        if (push.handler === 'inbox.new') {
          void latest.current.queryClient.invalidateQueries({ queryKey: inboxQueryKeys.all });
        }
      },
      onStopNotice: withStops ? (notice) => feed.current?.receive(notice) : undefined,
      onConnect: () => void latest.current.refresh(),
    });
  }, [token, withStops]);

  const forget = useCallback((ids: number[] | 'all') => {
    setUnread((current) => (ids === 'all' ? [] : current.filter((message) => !ids.includes(message.id))));
  }, []);

  const value = useMemo<NoticeCenter>(
    () => ({ unread, api, forget, refresh }),
    [unread, api, forget, refresh],
  );
  return (
    <NoticeCenterContext.Provider value={value}>
      {children}
      <StopNoticeStack
        queue={stopQueue}
        onDismiss={(id) => feed.current?.dismiss(id)}
        onDismissAll={() => feed.current?.dismissAll()}
      />
    </NoticeCenterContext.Provider>
  );
}
