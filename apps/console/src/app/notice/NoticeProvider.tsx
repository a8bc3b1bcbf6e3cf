import { useQueryClient } from '@tanstack/react-query';
import type { InboxMessageDto, InboxPush, StopNotice } from '@voltdepot/shared-contracts';
import { App } from 'antd';
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
import { useTranslation } from 'react-i18next';
import { apiBaseUrl, sessionStore } from '../../request';
import { usePlatformSettings } from '../platform/PlatformSettingsContext';
import { useAccessToken } from '../session/useSession';
import { inboxApi as defaultInboxApi, inboxQueryKeys, type InboxApi } from './inboxApi';
import { openPushConnection, pushUrl } from './pushClient';
import { speakChinese, StopNoticeBoard, stopNoticesEnabled, stopNoticeTitleKey, yuanOf } from './stopNotice';

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
 * shows the realtime stop notices.
 */
export function NoticeProvider({ children, api = defaultInboxApi }: NoticeProviderProps) {
  const token = useAccessToken();
  const { cityCode } = usePlatformSettings();
  const { notification } = App.useApp();
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [unread, setUnread] = useState<InboxMessageDto[]>([]);

  const refresh = useCallback(async () => {
    const list = await api.unread().catch(() => undefined);
    if (list) setUnread(list.filter((message) => !message.isRead));
  }, [api]);

  // Latest callbacks for the long-lived connection.
  const latest = useRef({ refresh, notification, t, queryClient });
  latest.current = { refresh, notification, t, queryClient };

  const withStops = stopNoticesEnabled(hadTokenOnLoad, cityCode);

  useEffect(() => {
    if (!token) {
      setUnread([]);
      return undefined;
    }
    const board = new StopNoticeBoard();
    const onStopNotice = (pushed: StopNotice) => {
      const update = board.receive(pushed);
      if (!update) return; // the amount of a notice the user already dismissed
      const { notice } = update;
      const key = notice.key;
      const { notification: notify, t: translate } = latest.current;
      const open = Number(notice.type) === 1 ? notify.info : notify.warning;
      const amount =
        notice.amountFen === undefined
          ? undefined
          : notice.orderHeld
            ? translate('notice.orderHeld')
            : translate('notice.orderAmount', { amount: yuanOf(notice.amountFen) });
      open({
        // The same key updates the notice already shown (its order's amount came).
        key,
        message: translate(stopNoticeTitleKey(notice)),
        description: (
          <>
            <div>{notice.msg}</div>
            {amount && <div data-testid="stop-notice-amount">{amount}</div>}
          </>
        ),
        duration: 0,
        closable: true,
        onClose: key ? () => board.dismiss(key) : undefined,
      });
      if (update.speak) speakChinese(notice.msg);
    };
    return openPushConnection({
      url: pushUrl(apiBaseUrl, window.location),
      accessToken: token,
      onInbox: (push) => {
        setUnread((current) => applyInboxPush(current, push));
        if (push.handler === 'inbox.new') {
          void latest.current.queryClient.invalidateQueries({ queryKey: inboxQueryKeys.all });
        }
      },
      onStopNotice: withStops ? onStopNotice : undefined,
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
  return <NoticeCenterContext.Provider value={value}>{children}</NoticeCenterContext.Provider>;
}
