import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { loadConfig } from '@voltdepot/server-core';
import { ocppGatewayEnvSchema } from '../gateway/ocpp-gateway.config';
import { GatewayTestHarness, requiredGatewayEnv as base } from '../testing/fixtures/gateway-test-harness';

/**
 * OCPP security profile 2: TLS with the server's certificate, plus HTTP Basic per pile. A self-signed
 * certificate for 127.0.0.1 is made with openssl for the test; the piles trust it as their CA.
 */
const dir = mkdtempSync(join(tmpdir(), 'vd-ocpp-tls-'));
const certFile = join(dir, 'cert.pem');
const keyFile = join(dir, 'key.pem');
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ],
  { stdio: 'ignore' },
);
const ca = readFileSync(certFile);

const h = new GatewayTestHarness();
beforeAll(async () => {
  await h.start({ OCPP_SECURITY_PROFILE: 2, OCPP_TLS_CERT_FILE: certFile, OCPP_TLS_KEY_FILE: keyFile });
});
afterAll(async () => {
  await h.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Opens `url` as a pile; resolves with the HTTP status of the upgrade (101 when admitted) or the error. */
function handshake(
  url: string,
  chargePointId: string,
  password: string,
  tls: { ca?: Buffer } = { ca },
): Promise<{ status?: number; error?: string; ws?: WebSocket }> {
  const ws = new WebSocket(`${url}/${chargePointId}`, ['ocpp1.6'], {
    ...tls,
    headers: { authorization: `Basic ${Buffer.from(`${chargePointId}:${password}`).toString('base64')}` },
  });
  return new Promise((resolve) => {
    ws.once('open', () => resolve({ status: 101, ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode });
      ws.terminate();
    });
    ws.once('error', (error) => resolve({ error: error.message }));
  });
}

const call = (ws: WebSocket, action: string, params: object): Promise<unknown[]> =>
  new Promise((resolve) => {
    ws.once('message', (data) => resolve(JSON.parse(String(data)) as unknown[]));
    ws.send(JSON.stringify([2, 'm1', action, params]));
  });

describe('OCPP security profile 2 (TLS + HTTP Basic)', () => {
  const wss = () => `wss://127.0.0.1:${h.gateway.port}/ocpp`;

  it('admits a pile over wss:// with its password, and it boots', async () => {
    const password = await h.addPile('TLS-1');
    const { status, ws } = await handshake(wss(), 'TLS-1', password);
    expect(status).toBe(101);
    const reply = await call(ws!, 'BootNotification', { chargePointVendor: 'V', chargePointModel: 'M' });
    expect(reply[0]).toBe(3);
    expect(reply[2]).toMatchObject({ status: 'Accepted' });
    ws!.close();
  });

  it('still checks the password and the registry behind TLS (401 for both)', async () => {
    await h.addPile('TLS-2');
    expect((await handshake(wss(), 'TLS-2', 'wrong-password')).status).toBe(401);
    expect((await handshake(wss(), 'TLS-NOBODY', 'whatever-password')).status).toBe(401);
  });

  it('serves no plain ws:// on the port, and a pile that does not trust the certificate fails the handshake', async () => {
    const password = await h.addPile('TLS-3');
    const plain = await handshake(`ws://127.0.0.1:${h.gateway.port}/ocpp`, 'TLS-3', password);
    expect(plain.status).toBeUndefined();
    expect(plain.error).toBeDefined();
    const untrusted = await handshake(wss(), 'TLS-3', password, {});
    expect(untrusted.error).toMatch(/self[- ]signed|certificate/i);
    // The gateway goes on serving after both.
    expect((await handshake(wss(), 'TLS-3', password)).status).toBe(101);
  });
});

describe('security profile configuration', () => {
  it('profile 2 without the certificate and key refuses to start, naming both', () => {
    expect(() => loadConfig(ocppGatewayEnvSchema, { ...base, OCPP_SECURITY_PROFILE: '2' })).toThrow(
      /OCPP_TLS_CERT_FILE[\s\S]*required when OCPP_SECURITY_PROFILE is 2[\s\S]*OCPP_TLS_KEY_FILE/,
    );
  });

  it('profile 2 with an unreadable file names it', () => {
    expect(() =>
      loadConfig(ocppGatewayEnvSchema, {
        ...base,
        OCPP_SECURITY_PROFILE: '2',
        OCPP_TLS_CERT_FILE: certFile,
        OCPP_TLS_KEY_FILE: join(dir, 'missing.pem'),
      }),
    ).toThrow(/OCPP_TLS_KEY_FILE[\s\S]*cannot read/);
  });

  it('profile 3 is not offered', () => {
    expect(() => loadConfig(ocppGatewayEnvSchema, { ...base, OCPP_SECURITY_PROFILE: '3' })).toThrow(
      /OCPP_SECURITY_PROFILE/,
    );
  });

  it('profile 1 (the default) needs no files', () => {
    expect(loadConfig(ocppGatewayEnvSchema, base).OCPP_SECURITY_PROFILE).toBe(1);
  });
});
