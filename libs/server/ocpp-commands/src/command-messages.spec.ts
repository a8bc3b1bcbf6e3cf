import { parseCommandReply, parseCommandRequest } from './command-messages';

describe('parseCommandRequest', () => {
  const request = {
    requestId: 'r-1',
    replyTo: 'vd:ocpp:cmd-reply:gw-2',
    chargePointId: 'CP-1',
    action: 'Reset',
    params: { type: 'Soft' },
    timeoutMs: 5_000,
  };

  it('reads a request', () => {
    expect(parseCommandRequest(JSON.stringify(request))).toEqual(request);
  });

  it('keeps only the protocol fields', () => {
    expect(parseCommandRequest(JSON.stringify({ ...request, extra: 1 }))).toEqual(request);
  });

  it.each([
    ['not JSON', '{'],
    ['not an object', '"Reset"'],
    ['an array', '[]'],
    ['null', 'null'],
    ['no requestId', JSON.stringify({ ...request, requestId: undefined })],
    ['no reply channel', JSON.stringify({ ...request, replyTo: undefined })],
    ['no charge point', JSON.stringify({ ...request, chargePointId: 1 })],
    ['no action', JSON.stringify({ ...request, action: undefined })],
    ['a timeout that is not a number', JSON.stringify({ ...request, timeoutMs: '5000' })],
  ])('ignores %s', (_what, message) => expect(parseCommandRequest(message)).toBeUndefined());
});

describe('parseCommandReply', () => {
  it('reads a confirmation', () => {
    expect(
      parseCommandReply(JSON.stringify({ requestId: 'r-1', ok: true, response: { status: 'Accepted' } })),
    ).toEqual({ requestId: 'r-1', ok: true, response: { status: 'Accepted' } });
  });

  it('reads an error with its details', () => {
    const reply = {
      requestId: 'r-1',
      ok: false,
      code: 'OCPP_PILE_CALL_ERROR',
      message: 'pile CP-1 answered ClearCache with NotImplemented: nope',
      details: { errorCode: 'NotImplemented' },
    };
    expect(parseCommandReply(JSON.stringify(reply))).toEqual(reply);
  });

  it.each([
    ['not JSON', 'nope'],
    ['no requestId', JSON.stringify({ ok: true, response: {} })],
    ['no ok flag', JSON.stringify({ requestId: 'r-1', response: {} })],
    ['an error without code', JSON.stringify({ requestId: 'r-1', ok: false, message: 'x' })],
    ['an error without message', JSON.stringify({ requestId: 'r-1', ok: false, code: 'X' })],
  ])('ignores %s', (_what, message) => expect(parseCommandReply(message)).toBeUndefined());
});
