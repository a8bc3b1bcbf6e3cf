import { createEnvelope } from '@voltdepot/server-messaging';
import { PileErrorCleared } from '@voltdepot/shared-events';
import { conditionMatches, ruleEventOf } from './event-values';

describe('conditionMatches', () => {
  it.each([
    [{}, true],
    [{ stopKind: 'abnormal' }, true],
    [{ stopKind: 'normal' }, false],
    [{ stopKind: 'abnormal', gun: 2 }, true],
    [{ gun: '3' }, false],
  ])('%j -> %s', (condition, expected) => {
    expect(conditionMatches(condition, { stopKind: 'abnormal', gun: 2 })).toBe(expected);
  });
});

describe('ruleEventOf pile.error-cleared', () => {
  it('names the error that ended, when it began and ended (business time), and the state now', () => {
    const event = ruleEventOf(
      createEnvelope(PileErrorCleared, 'CP-9', {
        chargePointId: 'CP-9',
        connectorId: 2,
        errorCode: 'GroundFailure',
        since: '2026-11-22T14:00:00.000Z',
        clearedAt: '2026-11-22T15:30:00.000Z',
        status: 'Available',
        currentErrorCode: 'NoError',
      }),
      'Asia/Shanghai',
    );
    expect(event).toEqual({
      eventType: 'pile.error-cleared',
      target: 'CP-9/2',
      values: expect.objectContaining({
        pile: 'CP-9',
        gun: 2,
        errorCode: 'GroundFailure',
        vendorErrorCode: '',
        status: 'Available',
        currentErrorCode: 'NoError',
      }),
    });
    expect(String(event?.values['since'])).toContain('22:00');
    expect(String(event?.values['time'])).toContain('23:30');
    expect(conditionMatches({ errorCode: 'GroundFailure' }, event!.values)).toBe(true);
  });
});
