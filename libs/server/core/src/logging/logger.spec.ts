import { runWithCorrelation } from './correlation-context';
import { createLogger } from './logger';
import { logSink } from './test-log-sink';

describe('createLogger', () => {
  it('writes JSON lines with service, level name and ISO time', () => {
    const sink = logSink();
    createLogger({ service: 'api', destination: sink.stream }).info({ stationId: 7 }, 'station online');
    expect(sink.lines).toHaveLength(1);
    expect(sink.lines[0]).toMatchObject({
      service: 'api',
      level: 'info',
      msg: 'station online',
      stationId: 7,
    });
    expect(sink.lines[0].time).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
    expect(sink.lines[0]).not.toHaveProperty('correlationId');
  });

  it('adds the active correlation id to every line, children included', () => {
    const sink = logSink();
    const logger = createLogger({ service: 'api', destination: sink.stream });
    runWithCorrelation('req-42', () => {
      logger.warn('first');
      logger.child({ area: 'stations' }).info('second');
    });
    expect(sink.lines.map((l) => [l.msg, l.correlationId])).toEqual([
      ['first', 'req-42'],
      ['second', 'req-42'],
    ]);
  });

  it('respects the level and redacts credentials', () => {
    const sink = logSink();
    const logger = createLogger({ service: 'api', level: 'warn', destination: sink.stream });
    logger.info('dropped');
    logger.warn(
      { user: { name: 'ops', password: 'hunter2' }, headers: { authorization: 'Bearer x' } },
      'kept',
    );
    expect(sink.lines).toHaveLength(1);
    expect(JSON.stringify(sink.lines[0])).not.toMatch(/hunter2|Bearer/);
  });
});
