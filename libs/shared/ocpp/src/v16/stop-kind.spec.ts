import { StopReasons } from './enums';
import { STOP_KIND_BY_REASON, stopKindOf } from './stop-kind';
import { isValidChargePointId } from './identity';

describe('stopKindOf', () => {
  it.each([
    ['Local', 'normal'],
    ['Remote', 'normal'],
    ['EVDisconnected', 'normal'],
    ['DeAuthorized', 'normal'],
    ['EmergencyStop', 'abnormal'],
    ['PowerLoss', 'abnormal'],
    ['HardReset', 'abnormal'],
    ['SoftReset', 'abnormal'],
    ['Reboot', 'abnormal'],
    ['UnlockCommand', 'abnormal'],
    ['Other', 'abnormal'],
  ] as const)('%s is %s', (reason, kind) => {
    expect(stopKindOf(reason)).toEqual({ reason, stopKind: kind });
  });

  it('treats a missing reason as Local (the OCPP default)', () => {
    expect(stopKindOf(undefined)).toEqual({ reason: 'Local', stopKind: 'normal' });
  });

  it('classifies every OCPP 1.6 reason', () => {
    for (const reason of StopReasons) expect(STOP_KIND_BY_REASON[reason]).toBeDefined();
  });
});

describe('isValidChargePointId', () => {
  it.each(['CP-001', 'depot1.bay7', 'A', 'x'.repeat(48)])('accepts %s', (id) =>
    expect(isValidChargePointId(id)).toBe(true),
  );
  it.each(['', '-lead', 'has space', 'x'.repeat(49), 'a/b', 'ä'])('rejects %j', (id) =>
    expect(isValidChargePointId(id)).toBe(false),
  );
});
