import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { testEnv } from '@voltdepot/server-testing';
import { busContract } from '../contract/bus-contract';
import { KafkaBus } from './kafka.bus';

const brokers = testEnv().kafkaBrokers;
if (!brokers) {
  throw new Error(
    'KAFKA_BROKERS is not set: run the tests through `npm test`, which starts a local Kafka broker',
  );
}
const prefix = `vdtest-${randomUUID().slice(0, 8)}`;

afterAll(async () => {
  const admin = new Kafka({ brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${prefix}.`));
  if (topics.length) await admin.deleteTopics({ topics });
  await admin.disconnect();
});

describe('KafkaBus contract', () => {
  busContract({
    makeBus: () =>
      new KafkaBus({
        brokers,
        topicPrefix: `${prefix}.`,
        clientId: 'contract',
        sessionTimeoutMs: 6000,
        heartbeatIntervalMs: 500,
      }),
    childEnv: { BUS: 'kafka', KAFKA_BROKERS: brokers.join(','), BUS_PREFIX: prefix },
    settleMs: 4000,
  });
});
