import { PileCommandErrorCode, PileCommandException } from './monitoring.exception';

describe('pile command errors forwarded from the gateway', () => {
  // The gateway's codes on the wire (apps/ocpp-gateway commands.exception.ts) and the status each answers.
  it.each([
    ['OCPP_COMMAND_INVALID', 400],
    ['OCPP_PILE_OFFLINE', 409],
    ['OCPP_PILE_NOT_ACCEPTED', 409],
    ['OCPP_COMMAND_TIMEOUT', 504],
    ['OCPP_PILE_CALL_ERROR', 502],
  ])('%s answers %i', (code, status) => {
    expect(Object.values(PileCommandErrorCode)).toContain(code);
    const error = new PileCommandException(code as PileCommandErrorCode, 'message');
    expect([error.code, error.httpStatus]).toEqual([code, status]);
  });

  it('knows no code the gateway does not send', () =>
    expect(Object.values(PileCommandErrorCode)).toHaveLength(5));
});
