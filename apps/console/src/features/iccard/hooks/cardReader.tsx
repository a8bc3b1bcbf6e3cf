import {
  CARD_READER_DEFAULT_URL,
  CardReaderClient,
  CardReaderError,
  type CardOnReader,
  type CardWritePurpose,
  type IcCardChip,
} from '@voltdepot/shared-contracts';
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

/** What the screens need of the local card reader agent (CardReaderClient; tests pass a fake). */
export type CardReader = {
  read(options?: { chip?: IcCardChip; expectCardNo?: string }): Promise<CardOnReader>;
  make(chip: IcCardChip, cardNo: string): Promise<CardOnReader>;
  write(purpose: CardWritePurpose, cardNo: string, balanceFen: number): Promise<CardOnReader>;
};

/** `unknown`: not asked yet (the reader is contacted when the operator acts or checks, never in the background). */
export type ReaderConnection = 'unknown' | 'checking' | 'connected' | 'disconnected';

export type CardReaderContextValue = {
  reader: CardReader;
  url: string;
  connection: ReaderConnection;
  /** Ask the agent once whether it answers (the indicator's "check", and a card action's dialog). */
  check: () => void;
};

const CardReaderContext = createContext<CardReaderContextValue | null>(null);

/** How long a check waits for the agent (ms). */
const CHECK_TIMEOUT_MS = 3_000;

/**
 * Whether the agent answers at `url`, asked on demand: one connection opened and closed again. Nothing
 * polls in the background, so a screen opened on a PC without a reader makes no failing connections;
 * the operation's own outcome updates it too (a request that reached the agent, or could not).
 */
function useReaderCheck(url: string, enabled: boolean) {
  const [connection, setConnection] = useState<ReaderConnection>('unknown');
  const probe = useRef<() => void>();
  useEffect(() => {
    let stopped = false;
    let socket: WebSocket | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (next: ReaderConnection) => {
      clearTimeout(timer);
      socket?.close();
      socket = undefined;
      if (!stopped) setConnection(next);
    };
    probe.current = () => {
      const Socket = (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
      if (!enabled || !Socket || socket) return;
      setConnection('checking');
      try {
        socket = new Socket(url);
      } catch {
        settle('disconnected');
        return;
      }
      const current = socket;
      timer = setTimeout(() => current === socket && settle('disconnected'), CHECK_TIMEOUT_MS);
      current.addEventListener('open', () => current === socket && settle('connected'));
      current.addEventListener('close', () => current === socket && settle('disconnected'));
    };
    return () => {
      stopped = true;
      clearTimeout(timer);
      socket?.close();
      probe.current = undefined;
    };
  }, [url, enabled]);
  const check = useCallback(() => probe.current?.(), []);
  return [connection, setConnection, check] as const;
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
  const [connection, setConnection, check] = useReaderCheck(url, reader === undefined);
  const set = useCallback((next: ReaderConnection) => setConnection(next), [setConnection]);
  const value = useMemo(
    () => ({ reader: observed(client, set), url, connection, check }),
    [client, set, url, connection, check],
  );
  return <CardReaderContext.Provider value={value}>{children}</CardReaderContext.Provider>;
}

export function useCardReader(): CardReaderContextValue {
  const value = useContext(CardReaderContext);
  if (!value) throw new Error('useCardReader needs a CardReaderProvider');
  return value;
}
