/**
 * WebSocket keep-alive (OCPP_WS_PING_INTERVAL_MS): the gateway pings a pile only after it has been
 * silent for an interval, keeps one that answers, and drops one that does not answer by the next.
 */
import WebSocket from 'ws';
import { loadConfig } from '@voltdepot/server-core';
import { eventually } from '@voltdepot/server-testing';
import { ocppGatewayEnvSchema } from '../gateway/ocpp-gateway.config';
import { GatewayTestHarness, requiredGatewayEnv as base } from './fixtures/gateway-test-harness';

// Long enough that a stall of the test process (gateway and piles share it) cannot pass for silence.
const INTERVAL_MS = 1_000;
const h = new GatewayTestHarness();

beforeAll(async () => {
  await h.start({ OCPP_WS_PING_INTERVAL_MS: INTERVAL_MS });
});
afterAll(async () => {
  await h.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function countPings(ws: WebSocket): { readonly count: number } {
  const counter = { count: 0 };
  ws.on('ping', () => counter.count++);
  return counter;
}

it('pings a silent pile every interval and keeps it while it answers', async () => {
  const password = await h.addPile('KA-SILENT');
  const { ws } = await h.rawSocket('KA-SILENT', password);
  const pings = countPings(ws);
  await sleep(INTERVAL_MS * 4 + 200);
  expect(pings.count).toBeGreaterThanOrEqual(2);
  expect(ws.readyState).toBe(WebSocket.OPEN);
  expect(await h.gateway.sessions.lookup('KA-SILENT')).toBeTruthy();
});

it('does not ping a pile whose frames already show the connection is alive', async () => {
  const password = await h.addPile('KA-TALKS');
  const { ws, frames } = await h.rawSocket('KA-TALKS', password);
  const pings = countPings(ws);
  let sent = 0;
  const talk = setInterval(() => ws.send(JSON.stringify([2, `hb-${++sent}`, 'Heartbeat', {}])), 50);
  try {
    await sleep(INTERVAL_MS * 4);
  } finally {
    clearInterval(talk);
  }
  // It was heard (each Heartbeat answered) and never pinged.
  await eventually(() => expect(frames.length).toBe(sent));
  expect(sent).toBeGreaterThan(10);
  expect(pings.count).toBe(0);
  // Once it falls silent, the pings start.
  await eventually(() => expect(pings.count).toBeGreaterThanOrEqual(1), INTERVAL_MS * 4);
});

it('disconnects a pile that does not answer a ping by the next interval, and forgets its session', async () => {
  const password = await h.addPile('KA-DEAD');
  const started = Date.now();
  const { ws } = await h.rawSocket('KA-DEAD', password, { autoPong: false });
  const pings = countPings(ws);
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await eventually(async () => expect(await h.gateway.sessions.lookup('KA-DEAD')).toBeTruthy());
  const code = await closed;
  // One ping after an interval of silence, the drop an interval later (the socket is terminated, 1006).
  expect(Date.now() - started).toBeGreaterThanOrEqual(INTERVAL_MS * 2);
  expect(pings.count).toBe(1);
  expect(code).toBe(1006);
  await eventually(async () => expect(await h.gateway.sessions.lookup('KA-DEAD')).toBeUndefined());
  expect(h.logs.some((l) => l.chargePointId === 'KA-DEAD' && l.msg === 'pile disconnected')).toBe(true);
});

describe('OCPP_WS_PING_INTERVAL_MS', () => {
  const interval = (value?: string) =>
    loadConfig(ocppGatewayEnvSchema, {
      ...base,
      ...(value === undefined ? {} : { OCPP_WS_PING_INTERVAL_MS: value }),
    }).OCPP_WS_PING_INTERVAL_MS;

  it('is 30 s by default, 0 to never ping, or at least a second', () => {
    expect(interval()).toBe(30_000);
    expect(interval('0')).toBe(0);
    expect(interval('1000')).toBe(1_000);
  });

  it('refuses an interval that would ping constantly, or no number', () => {
    expect(() => interval('1')).toThrow(
      /OCPP_WS_PING_INTERVAL_MS[\s\S]*0 \(never ping\) or at least 1000 ms/,
    );
    expect(() => interval('999')).toThrow(/at least 1000 ms/);
    expect(() => interval('-5')).toThrow(/OCPP_WS_PING_INTERVAL_MS/);
    expect(() => interval('soon')).toThrow(/expected a number/);
  });
});
