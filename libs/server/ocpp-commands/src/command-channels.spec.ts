import { commandChannel, connectionKey, replyChannel } from './command-channels';

describe('command protocol names', () => {
  it.each([
    ['command channel of a replica', commandChannel('vd', 'gw-1'), 'vd:ocpp:cmd:gw-1'],
    [
      'reply channel of a sender',
      replyChannel('vd', 'api-host-42-ab12cd34'),
      'vd:ocpp:cmd-reply:api-host-42-ab12cd34',
    ],
    ['connection record of a pile', connectionKey('t-1', 'CP-7'), 't-1:ocpp:conn:CP-7'],
  ])('%s', (_what, name, expected) => expect(name).toBe(expected));
});
