import type { ChannelSender } from '../channels/channel-sender';
import { handlersByJobName } from './channel-workers';
import { SEND_JOB_NAMES } from './send-message.job';

const sender = (jobName: string) =>
  ({ jobName, channel: 0, send: async () => undefined }) as unknown as ChannelSender;
const all = () => Object.values(SEND_JOB_NAMES).map(sender);

describe('handlersByJobName', () => {
  it('maps every job name to its one handler', () => {
    expect([...handlersByJobName(all()).keys()].sort()).toEqual(Object.values(SEND_JOB_NAMES).sort());
  });

  it.each([
    ['a missing handler', all().slice(1), "job 'send.sms' has no handler"],
    ['a duplicated handler', [...all(), sender('send.email')], "job 'send.email' has more than one handler"],
    ['a handler of an unknown job', [...all(), sender('send.fax')], "handler for unknown job 'send.fax'"],
  ])('refuses %s', (_case, senders, message) => {
    expect(() => handlersByJobName(senders)).toThrow(message);
  });
});
