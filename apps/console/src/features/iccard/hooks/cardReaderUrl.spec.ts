import { CARD_READER_DEFAULT_URL } from '@voltdepot/shared-contracts';
import { describe, expect, it } from 'vitest';
import { CARD_READER_URL_STORAGE_KEY, cardReaderUrl } from './cardReader';

const storage = (value: string | null) => ({
  getItem: (key: string) => (key === CARD_READER_URL_STORAGE_KEY ? value : null),
});

describe('the card reader address', () => {
  it('is the default without a setting', () => {
    expect(cardReaderUrl(storage(null))).toBe(CARD_READER_DEFAULT_URL);
  });

  it.each(['ws://127.0.0.1:24455', 'ws://localhost:4456/', ' ws://127.0.0.1:4455 '])(
    'follows a loopback setting (%s)',
    (value) => {
      expect(cardReaderUrl(storage(value))).toBe(value.trim());
    },
  );

  it.each(['ws://10.0.0.5:4455', 'wss://127.0.0.1:4455', 'http://127.0.0.1:4455', 'ws://127.0.0.1.evil:1'])(
    'ignores a setting that is not this PC (%s)',
    (value) => {
      expect(cardReaderUrl(storage(value))).toBe(CARD_READER_DEFAULT_URL);
    },
  );

  it('falls back when the storage refuses to be read', () => {
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(cardReaderUrl(refusing)).toBe(CARD_READER_DEFAULT_URL);
  });
});
