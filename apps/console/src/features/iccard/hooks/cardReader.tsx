import {
  CARD_READER_DEFAULT_URL,
  CardReaderClient,
  CardReaderError,
  type CardOnReader,
  type CardWritePurpose,
  type IcCardChip,
} from '@voltdepot/shared-contracts';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

/** What the screens need of the local card reader agent (CardReaderClient; tests pass a fake). */
export type CardReader = {
  read(options?: { chip?: IcCardChip; expectCardNo?: string }): Promise<CardOnReader>;
  make(chip: IcCardChip, cardNo: string): Promise<CardOnReader>;
  write(purpose: CardWritePurpose, cardNo: string, balanceFen: number): Promise<CardOnReader>;
};

export type ReaderConnection = 'checking' | 'connected' | 'disconnected';

export type CardReaderContextValue = {
  reader: CardReader;
  url: string;
  connection: ReaderConnection;
};

const CardReaderContext = createContext<CardReaderContextValue | null>(null);

/** How often a lost reader is looked for again (ms). */
const PROBE_RETRY_MS = 5_000;

/**
 * Watches whether the agent answers at `url`: a connection of its own, opened again a while after it
 * closes. The operation's own outcome updates it too (a request that reached the agent, or could not).
 */
function useReaderProbe(url: string, enabled: boolean) {
  const [connection, setConnection] = useState<ReaderConnection>('checking');
  useEffect(() => {
    const Socket = (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
    if (!enabled || !Socket) return undefined;
    let socket: WebSocket | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const open = () => {
      if (stopped) return;
      try {
        socket = new Socket(url);
      } catch {
        setConnection('disconnected');
        timer = setTimeout(open, PROBE_RETRY_MS);
        return;
      }
      socket.addEventListener('open', () => setConnection('connected'));
      socket.addEventListener('close', () => {
        setConnection('disconnected');
        if (!stopped) timer = setTimeout(open, PROBE_RETRY_MS);
      });
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(timer);
      socket?.close();
    };
  }, [url, enabled]);
  return [connection, setConnection] as const;
}

/** The outcome of a reader operation as the connection indicator reads it. */
function observed(reader: CardReader, set: (connection: ReaderConnection) => void): CardReader {
  const watch = async (operation: Promise<CardOnReader>) => {
    try {
      const card = await operation;
      set('connected');
      return card;
    } catch (error) {
      if (error instanceof CardReaderError) set(error.failure === 'reader' ? 'connected' : 'disconnected');
      throw error;
    }
  };
  return {
    read: (options) => watch(reader.read(options)),
    make: (chip, cardNo) => watch(reader.make(chip, cardNo)),
    write: (purpose, cardNo, balanceFen) => watch(reader.write(purpose, cardNo, balanceFen)),
  };
}

/** Where this PC's reader agent listens when it is not on the default port (set once per browser). */
export const CARD_READER_URL_STORAGE_KEY = 'voltdepot.cardReaderUrl';

/**
 * The reader agent's address: the browser's own setting when it names a loopback WebSocket
 * (`ws://127.0.0.1:<port>` or `ws://localhost:<port>`: the agent serves this PC only, and the console's
 * CSP allows nothing else), else CARD_READER_DEFAULT_URL.
 */
export function cardReaderUrl(
  storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage,
): string {
  let stored: string | null = null;
  try {
    stored = storage?.getItem(CARD_READER_URL_STORAGE_KEY) ?? null;
  } catch {
    stored = null; // storage refused (private mode): the default
  }
  return stored && /^ws:\/\/(127\.0\.0\.1|localhost):\d{1,5}\/?$/.test(stored.trim())
    ? stored.trim()
    : CARD_READER_DEFAULT_URL;
}

/**
 * The card reader of the operator's PC (docs/ic-cards.md, "The card reader protocol"): one client per
 * screen, on `cardReaderUrl()`, with a connection indicator. `reader` replaces the agent (tests).
 */
export function CardReaderProvider({
  children,
  reader,
  url = cardReaderUrl(),
}: {
  children: ReactNode;
  reader?: CardReader;
  url?: string;
}) {
  const client = useMemo(() => reader ?? new CardReaderClient({ url }), [reader, url]);
  useEffect(
    () => () => {
      if (client instanceof CardReaderClient) client.close();
    },
    [client],
  );
  const [connection, setConnection] = useReaderProbe(url, reader === undefined);
  const set = useCallback((next: ReaderConnection) => setConnection(next), [setConnection]);
  const value = useMemo(
    () => ({ reader: observed(client, set), url, connection }),
    [client, set, url, connection],
  );
  return <CardReaderContext.Provider value={value}>{children}</CardReaderContext.Provider>;
}

export function useCardReader(): CardReaderContextValue {
  const value = useContext(CardReaderContext);
  if (!value) throw new Error('useCardReader needs a CardReaderProvider');
  return value;
}
