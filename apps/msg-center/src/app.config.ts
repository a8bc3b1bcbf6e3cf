import {
  envBoolean,
  envHostPatterns,
  envInt,
  envPort,
  envUrl,
  serviceConfigSchema,
} from '@voltdepot/server-core';
import { z } from 'zod';

/**
 * Configuration of msg-center (service and worker). OPENAPI_DOCS (true outside production): serve
 * /ms/docs and /ms/docs-json (no token needed).
 */
export const msgCenterConfigSchema = serviceConfigSchema(
  { serviceName: 'msg-center', port: 3200 },
  {
    /** Shared with the api (which issues the tokens); at least 32 characters. */
    JWT_SECRET: z.string().min(32, 'must have at least 32 characters'),
    /** Redis key prefix of sessions; the same in every service. */
    AUTH_REDIS_KEY_PREFIX: z.string().default('auth:'),
    /** STOMP heart-beat each way (ms), announced in CONNECTED. */
    STOMP_HEARTBEAT_MS: envInt({ min: 0, max: 600_000 }).default('30000'),
    /** A session silent for longer than the negotiated incoming heart-beat plus this is dropped. */
    STOMP_HEARTBEAT_GRACE_MS: envInt({ min: 0, max: 600_000 }).default('5000'),
    /** A socket that has not sent CONNECT within this time is closed. */
    STOMP_CONNECT_TIMEOUT_MS: envInt({ min: 100, max: 600_000 }).default('30000'),
    /** Redis pub/sub channel shared by all replicas for pushes to STOMP sessions. */
    STOMP_FANOUT_CHANNEL: z.string().min(1).default('msg-center:stomp'),
    /** Business time zone of notice and inbox dates. */
    BUSINESS_TIME_ZONE: z.string().min(1).default('Asia/Shanghai'),
    /** Prefix of the BullMQ queues (one queue per channel). */
    MSG_QUEUE_PREFIX: z.string().min(1).default('vd-msg'),
    /** Attempts per channel job (first try included) and the first backoff delay. */
    MSG_JOB_ATTEMPTS: envInt({ min: 1, max: 50 }).default('5'),
    MSG_JOB_BACKOFF_MS: envInt({ min: 10, max: 3_600_000 }).default('5000'),
    /** How long a worker holds a job lock; a killed worker's job is taken over after it expires. */
    MSG_JOB_LOCK_MS: envInt({ min: 500, max: 600_000 }).default('30000'),
    MSG_WORKER_CONCURRENCY: envInt({ min: 1, max: 200 }).default('10'),
    /** The worker process (worker.main.ts) serves /health and /metrics here, nothing else. */
    MSG_WORKER_PORT: envPort().default('3201'),
    /** Prefix of bus topics (default 'vd'); tests isolate themselves with it. */
    BUS_PREFIX: z.string().min(1).optional(),
    /** Run the bus listeners (stop notices, event rules) in this process. */
    MSG_BUS_LISTENERS: envBoolean().default('true'),
    /** How often connected STOMP sessions are checked for a revoked session (logout, disabled user). */
    STOMP_SESSION_CHECK_MS: envInt({ min: 50, max: 3_600_000 }).default('15000'),
    /** Evaluate the alerts (KAFKA, REDIS, HTTP, CONNECTION, NODE, JAVA) in this worker. */
    MSG_ALERTS_ENABLED: envBoolean().default('true'),
    /** How often every enabled alert is evaluated (a BullMQ job scheduler in the worker). */
    MSG_ALERT_INTERVAL_MS: envInt({ min: 100, max: 86_400_000 }).default('60000'),
    /** Time-out of the network calls of one check; a target that does not answer in time is down. */
    MSG_ALERT_TIMEOUT_MS: envInt({ min: 50, max: 120_000 }).default('5000'),
    /** Gap between the two readings a CPU percentage is computed from. */
    MSG_ALERT_CPU_SAMPLE_MS: envInt({ min: 10, max: 60_000 }).default('1000'),
    /** Alerts evaluated at once by one worker. */
    MSG_ALERT_CONCURRENCY: envInt({ min: 1, max: 100 }).default('4'),
    /** Base URL of a Prometheus HTTP API: `promql:` alert targets and its active targets in /prometheus/targets. */
    MSG_PROMETHEUS_URL: envUrl(['http', 'https']).optional(),
    OPENAPI_DOCS: envBoolean().optional(),
    /**
     * Hosts inside the network (loopback, private addresses) that alert targets, robot webhooks and mail
     * or SMS endpoints may reach: names, *.domain, addresses, CIDR ranges, or *. Link-local and metadata
     * addresses are never reachable; public ones always; this service's own PostgreSQL, Redis, Kafka and
     * Prometheus are. Default: none in production, loopback otherwise.
     */
    OUTBOUND_ALLOWED_HOSTS: envHostPatterns().optional(),
  },
).transform((c) => ({
  ...c,
  OPENAPI_DOCS: c.OPENAPI_DOCS ?? c.NODE_ENV !== 'production',
  OUTBOUND_ALLOWED_HOSTS:
    c.OUTBOUND_ALLOWED_HOSTS ?? (c.NODE_ENV === 'production' ? [] : ['localhost', '127.0.0.0/8', '::1']),
}));

export type MsgCenterConfig = z.output<typeof msgCenterConfigSchema>;
