import { loadCardReaderConfig } from './card-reader.config';

describe('loadCardReaderConfig', () => {
  it('defaults to port 4455 and the console’s development origins', () => {
    expect(loadCardReaderConfig({})).toEqual({
      port: 4455,
      allowedOrigins: ['http://localhost:4200', 'http://127.0.0.1:4200'],
      stateFile: undefined,
    });
  });

  it('reads the port, the origins and the state file', () => {
    expect(
      loadCardReaderConfig({
        CARD_READER_PORT: '0',
        CARD_READER_ALLOWED_ORIGINS: 'https://ops.example.com, http://localhost:4200',
        CARD_READER_STATE_FILE: '/tmp/reader.json',
      }),
    ).toEqual({
      port: 0,
      allowedOrigins: ['https://ops.example.com', 'http://localhost:4200'],
      stateFile: '/tmp/reader.json',
    });
  });

  it.each([
    [{ CARD_READER_PORT: 'abc' }, /CARD_READER_PORT/],
    [{ CARD_READER_PORT: '70000' }, /CARD_READER_PORT/],
    [{ CARD_READER_ALLOWED_ORIGINS: '*' }, /CARD_READER_ALLOWED_ORIGINS/],
    [{ CARD_READER_ALLOWED_ORIGINS: 'http://localhost:4200/path' }, /CARD_READER_ALLOWED_ORIGINS/],
  ])('refuses %j', (env, message) => {
    expect(() => loadCardReaderConfig(env)).toThrow(message);
  });
});
