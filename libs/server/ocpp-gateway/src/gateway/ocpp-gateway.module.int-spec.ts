import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import Redis from 'ioredis';
import pino from 'pino';
import { RPCClient } from 'ocpp-rpc';
import { RedisStreamsBus } from '@voltdepot/server-messaging';
import { createTestDatabase, testEnv, type TestDatabase } from '@voltdepot/server-testing';
import { pilePasswordHasherOf } from '@voltdepot/server-pile-credentials';
import { CommandService } from '../commands/command.service';
import { OcppGateway } from './ocpp-gateway';
import { OcppGatewayModule } from './ocpp-gateway.module';

let db: TestDatabase;
let redis: Redis;
const prefix = `vdtest-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  db = await createTestDatabase();
  redis = new Redis(testEnv().redisUrl);
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  await db.drop();
});

it('OcppGatewayModule starts the OCPP server with the application and stops it on close', async () => {
  const bus = new RedisStreamsBus({ url: testEnv().redisUrl, prefix });
  @Module({
    imports: [
      OcppGatewayModule.forRootAsync({
        useFactory: () => ({
          dataSource: db.dataSource,
          redis,
          bus,
          logger: pino({ level: 'silent' }),
          settings: { OCPP_PORT: 0, OCPP_HOST: '127.0.0.1', OCPP_REDIS_PREFIX: prefix },
        }),
      }),
    ],
  })
  class TestAppModule {}

  const app = await NestFactory.createApplicationContext(TestAppModule, { logger: false });
  await app.init();
  const gateway = app.get(OcppGateway);
  expect(app.get(CommandService)).toBe(gateway.commands);
  await db.dataSource.query(
    `INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ('NEST-1', 'active', $1)`,
    [pilePasswordHasherOf({}).hasher.hash('pw')],
  );
  const client = new RPCClient({
    endpoint: `ws://127.0.0.1:${gateway.port}/ocpp`,
    identity: 'NEST-1',
    password: 'pw',
    protocols: ['ocpp1.6'],
    strictMode: true,
    reconnect: false,
  } as ConstructorParameters<typeof RPCClient>[0]);
  await client.connect();
  expect(
    await client.call('BootNotification', { chargePointVendor: 'V', chargePointModel: 'M' }),
  ).toMatchObject({ status: 'Accepted' });
  const closed = new Promise<{ code: number }>((resolve) => client.once('close', resolve));
  await app.close();
  expect((await closed).code).toBe(1001);
  await bus.close();
});
