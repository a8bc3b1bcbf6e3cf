import { defineJob } from './job';
import type { JobHandler } from './job-handler';
import { handlersByJobName } from './job-registry';

const sweep = defineJob<Record<string, never>>({
  name: 'billing.sweep',
  attempts: 3,
  backoffMs: 100,
  schedule: { everyMs: 1000, payload: {} },
});
const notify = defineJob<{ id: number }>({
  name: 'billing.notify',
  attempts: 3,
  backoffMs: 100,
  jobId: (p) => `n.${p.id}`,
});
const handler: JobHandler<unknown> = { handle: async () => undefined };
const handles = (jobName: string, owner = `${jobName} handler`) => ({ jobName, handler, owner });

describe('handlersByJobName', () => {
  it('returns the handler of each declared job', () => {
    const map = handlersByJobName([sweep, notify], [handles('billing.sweep'), handles('billing.notify')]);
    expect([...map.keys()].sort()).toEqual(['billing.notify', 'billing.sweep']);
  });

  it.each([
    [
      'a job without a handler',
      [sweep, notify],
      [handles('billing.sweep')],
      "job 'billing.notify' has no handler",
    ],
    [
      'a handler without a job',
      [sweep],
      [handles('billing.sweep'), handles('billing.other', 'OtherHandler')],
      "OtherHandler handles 'billing.other', which no module declares",
    ],
    [
      'two handlers of one job',
      [sweep],
      [handles('billing.sweep'), handles('billing.sweep')],
      "job 'billing.sweep' has more than one handler",
    ],
    [
      'a job declared twice',
      [sweep, sweep],
      [handles('billing.sweep')],
      "job 'billing.sweep' is declared more than once",
    ],
  ])('refuses %s', (_case, jobs, handlers, problem) => {
    expect(() => handlersByJobName(jobs, handlers)).toThrow(/^Refusing to start the job worker: /);
    expect(() => handlersByJobName(jobs, handlers)).toThrow(problem);
  });

  it('names every problem at once', () => {
    expect(() => handlersByJobName([sweep, notify], [handles('billing.x', 'X')])).toThrow(
      "Refusing to start the job worker: X handles 'billing.x', which no module declares; job 'billing.sweep' has no handler; job 'billing.notify' has no handler",
    );
  });
});
