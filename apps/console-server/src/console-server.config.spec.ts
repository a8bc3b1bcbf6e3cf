import { ConfigError, loadConfig } from '@voltdepot/server-core';
import { consoleServerConfigSchema } from './console-server.config';
import { negotiateEncoding } from './static-site';

describe('console server configuration', () => {
  it('has defaults for a local run', () => {
    expect(loadConfig(consoleServerConfigSchema, {})).toMatchObject({
      PORT: 4200,
      CONSOLE_DIST: 'dist/apps/console',
      API_UPSTREAM: 'http://127.0.0.1:3000',
      MS_UPSTREAM: 'http://127.0.0.1:3200',
      TRUST_PROXY: [],
      BEHIND_TLS: false,
      CONSOLE_MAP_TILE_ORIGINS: [],
      CONSOLE_CARD_READER_ORIGINS: ['ws://127.0.0.1:*'],
    });
  });

  it('takes origin lists separated by spaces or commas, wildcards as CSP allows them', () => {
    const config = loadConfig(consoleServerConfigSchema, {
      CONSOLE_MAP_TILE_ORIGINS: 'https://*.tile.openstreetmap.org, https://webrd01.is.autonavi.com:443',
      CONSOLE_CARD_READER_ORIGINS: 'ws://127.0.0.1:17800 http://localhost:*',
    });
    expect(config.CONSOLE_MAP_TILE_ORIGINS).toEqual([
      'https://*.tile.openstreetmap.org',
      'https://webrd01.is.autonavi.com:443',
    ]);
    expect(config.CONSOLE_CARD_READER_ORIGINS).toEqual(['ws://127.0.0.1:17800', 'http://localhost:*']);
  });

  // Anything else could widen the policy: another directive, a keyword, any host.
  it.each([
    "https://tiles.example; script-src 'unsafe-inline'",
    "'unsafe-inline'",
    '*',
    'https:',
    'tiles.example.com',
    'https://tiles.example.com/path',
    'javascript://x',
  ])('refuses %j as a map tile origin', (value) => {
    expect(() => loadConfig(consoleServerConfigSchema, { CONSOLE_MAP_TILE_ORIGINS: value })).toThrow(
      ConfigError,
    );
  });
});

describe('negotiateEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['*', 'gzip'],
    ['identity', undefined],
    ['gzip;q=0', undefined],
    [undefined, undefined],
  ])('%j -> %j', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});
