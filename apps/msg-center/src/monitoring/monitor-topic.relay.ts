import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { parseMonitorPush, stationOfTopic, StationWatchPolicy } from '@voltdepot/server-monitoring';
import { monitorStationTopic } from '@voltdepot/shared-contracts';
import Redis from 'ioredis';
import { StompProtocolError, type StompPrincipal } from '../stomp/stomp-session';
import { StompServer } from '../stomp/stomp.server';
import { StompSubscriptionGuards } from '../stomp/subscription-guards';

export type MonitorTopicOptions = { redisUrl: string; feedChannel: string };
/** Everything under it is monitoring's: a destination there that names no station is refused, not kept idle. */
const MONITOR_TOPICS_PREFIX = '/topic/monitor/';
export const MONITOR_TOPIC_OPTIONS = Symbol('MONITOR_TOPIC_OPTIONS');

/**
 * The live-monitoring topics `/topic/monitor/station/{id}`: a SUBSCRIBE is allowed only to holders of a
 * monitoring screen's permission whose data scope contains the station; the api's read-model projector
 * announces changes on a Redis channel, which every replica hears and delivers to its own sessions.
 */
@Injectable()
export class MonitorTopicRelay implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('MonitorTopicRelay');
  private subscriber?: Redis;

  constructor(
    @Inject(MONITOR_TOPIC_OPTIONS) private readonly options: MonitorTopicOptions,
    private readonly policy: StationWatchPolicy,
    private readonly guards: StompSubscriptionGuards,
    private readonly stomp: StompServer,
  ) {}

  async onModuleInit(): Promise<void> {
    this.guards.register(MONITOR_TOPICS_PREFIX, (principal, destination) =>
      this.authorize(principal, destination),
    );
    this.subscriber = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    this.subscriber.on('error', (error) => this.logger.warn(`monitor feed: ${error.message}`));
    this.subscriber.on('message', (_channel: string, raw: string) => {
      const push = parseMonitorPush(raw);
      if (!push) return;
      // Every replica hears the feed: each delivers to its own sessions only.
      this.stomp.deliverToTopic(monitorStationTopic(push.stationId), raw);
    });
    await this.subscriber.subscribe(this.options.feedChannel);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  private async authorize(principal: StompPrincipal, destination: string): Promise<void> {
    const stationId = stationOfTopic(destination);
    if (stationId === undefined) {
      throw new StompProtocolError('Unknown destination', `Cannot subscribe to '${destination}'`);
    }
    const decision = await this.policy.decide(principal.userId, stationId);
    if (!decision.allowed) throw new StompProtocolError('Forbidden subscription', decision.reason);
  }
}
