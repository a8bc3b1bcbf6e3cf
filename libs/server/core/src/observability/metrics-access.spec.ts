import { metricsDecision } from './metrics-access';

const TOKEN = 'scrape-token-0123456789';

describe('who reads /metrics', () => {
  it.each([
    ['development, no token', { NODE_ENV: 'development' }, undefined, 'serve'],
    ['production, no token', { NODE_ENV: 'production' }, undefined, 'closed'],
    [
      'production, no token, METRICS_PUBLIC',
      { NODE_ENV: 'production', METRICS_PUBLIC: true },
      undefined,
      'serve',
    ],
    [
      'development, METRICS_PUBLIC=false',
      { NODE_ENV: 'development', METRICS_PUBLIC: false },
      undefined,
      'closed',
    ],
    ['a token, none presented', { METRICS_TOKEN: TOKEN }, undefined, 'token-missing'],
    ['a token, another presented', { METRICS_TOKEN: TOKEN }, 'Bearer scrape-token-0123456780', 'token-wrong'],
    ['a token, a shorter one presented', { METRICS_TOKEN: TOKEN }, 'Bearer x', 'token-wrong'],
    ['a token, as Basic', { METRICS_TOKEN: TOKEN }, `Basic ${TOKEN}`, 'token-missing'],
    ['a token, presented (outside production too)', { METRICS_TOKEN: TOKEN }, `Bearer ${TOKEN}`, 'serve'],
    [
      'a token, presented in production',
      { NODE_ENV: 'production', METRICS_TOKEN: TOKEN },
      `bearer ${TOKEN}`,
      'serve',
    ],
    [
      'a token and METRICS_PUBLIC: the token still counts',
      { METRICS_TOKEN: TOKEN, METRICS_PUBLIC: true },
      undefined,
      'token-missing',
    ],
  ] as const)('%s -> %s', (_case, config, authorization, decision) => {
    expect(metricsDecision(config, authorization)).toBe(decision);
  });
});
