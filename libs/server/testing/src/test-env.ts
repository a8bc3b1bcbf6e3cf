/**
 * Where the integration tests find real servers. `scripts/infra.sh` writes these into .var/infra.env and
 * the test command exports them; the defaults match a developer machine with local services.
 */
export type TestEnv = { databaseUrl: string; redisUrl: string; kafkaBrokers: string[] | undefined };

export function testEnv(): TestEnv {
  const brokers = process.env['KAFKA_BROKERS'];
  return {
    databaseUrl: process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/voltdepot',
    redisUrl: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
    kafkaBrokers: brokers
      ? brokers
          .split(',')
          .map((b) => b.trim())
          .filter(Boolean)
      : undefined,
  };
}
