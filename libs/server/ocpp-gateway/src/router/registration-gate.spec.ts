import type { PileSession } from '../connection/pile-session';
import {
  registrationOnConnect,
  allowTriggeredMessage,
  commandRefusal,
  mayPileSend,
  TRIGGERED_MESSAGE_WINDOW_MS,
} from './registration-gate';

const session = (registrationStatus?: PileSession['registrationStatus']): PileSession =>
  ({ chargePointId: 'CP-1', registrationStatus }) as PileSession;

describe('mayPileSend', () => {
  it.each([
    [undefined, 'BootNotification', true],
    [undefined, 'Heartbeat', false],
    ['Accepted', 'StopTransaction', true],
    ['Pending', 'BootNotification', true],
    ['Pending', 'StatusNotification', false],
    ['Rejected', 'BootNotification', true],
    ['Rejected', 'StopTransaction', false],
  ] as const)('%s pile sending %s: %s', (status, action, allowed) => {
    expect(mayPileSend(session(status), action)).toBe(allowed);
  });

  it('lets a Pending pile send a triggered message once, within the window', () => {
    const pending = session('Pending');
    allowTriggeredMessage(pending, 'MeterValues', 1_000);
    expect(mayPileSend(pending, 'Heartbeat', 1_001)).toBe(false);
    expect(mayPileSend(pending, 'MeterValues', 1_001)).toBe(true);
    expect(mayPileSend(pending, 'MeterValues', 1_002)).toBe(false);
    allowTriggeredMessage(pending, 'Heartbeat', 1_000);
    expect(mayPileSend(pending, 'Heartbeat', 1_000 + TRIGGERED_MESSAGE_WINDOW_MS + 1)).toBe(false);
  });

  it('a trigger does not open anything for a pile that is not Pending', () => {
    const rejected = session('Rejected');
    allowTriggeredMessage(rejected, 'Heartbeat', 0);
    expect(mayPileSend(rejected, 'Heartbeat', 1)).toBe(false);
  });
});

describe('commandRefusal', () => {
  it.each([
    ['Accepted', 'RemoteStartTransaction', undefined],
    ['Pending', 'GetConfiguration', undefined],
    ['Pending', 'RemoteStartTransaction', /pending/],
    ['Pending', 'RemoteStopTransaction', /pending/],
    ['Rejected', 'GetConfiguration', /rejected/],
    [undefined, 'Reset', /not booted/],
  ] as const)('%s pile, %s -> %s', (status, action, refusal) => {
    const reason = commandRefusal(session(status), action);
    if (refusal === undefined) expect(reason).toBeUndefined();
    else expect(reason).toMatch(refusal);
  });
});

describe('registrationOnConnect', () => {
  it.each([
    ['Accepted', 'active', 'Accepted'],
    ['Pending', 'active', 'Pending'],
    [undefined, 'active', undefined],
    ['Accepted', 'pending', 'Pending'],
    ['Rejected', 'pending', 'Rejected'],
    [undefined, 'pending', undefined],
    ['Accepted', 'disabled', 'Rejected'],
    ['Pending', 'disabled', 'Rejected'],
    [undefined, 'disabled', 'Rejected'],
  ] as const)('last boot %s, registry %s -> %s', (lastBoot, state, expected) => {
    expect(registrationOnConnect(lastBoot, state)).toBe(expected);
  });
});
