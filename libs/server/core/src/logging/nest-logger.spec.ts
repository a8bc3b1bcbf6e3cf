import { createLogger } from './logger';
import { NestPinoLogger } from './nest-logger';
import { logSink } from './test-log-sink';

describe('NestPinoLogger', () => {
  function setup() {
    const sink = logSink();
    return {
      sink,
      nest: new NestPinoLogger(createLogger({ service: 'api', level: 'trace', destination: sink.stream })),
    };
  }

  it('maps Nest levels and takes the context from the last string', () => {
    const { sink, nest } = setup();
    nest.log('Nest application successfully started', 'NestApplication');
    nest.warn('careful', 'StationsService');
    nest.debug('details');
    nest.verbose('more details', 'X');
    nest.fatal('bye', 'Main');
    expect(sink.lines.map((l) => [l.level, l.msg, l.context])).toEqual([
      ['info', 'Nest application successfully started', 'NestApplication'],
      ['warn', 'careful', 'StationsService'],
      ['debug', 'details', undefined],
      ['trace', 'more details', 'X'],
      ['fatal', 'bye', 'Main'],
    ]);
  });

  it('keeps the stack Nest passes separately to error()', () => {
    const { sink, nest } = setup();
    const stack = 'Error: boom\n    at Foo (/x.js:1:1)';
    nest.error('boom', stack, 'ExceptionHandler');
    expect(sink.lines[0]).toMatchObject({ level: 'error', msg: 'boom', stack, context: 'ExceptionHandler' });
  });

  it('serialises Error and object messages', () => {
    const { sink, nest } = setup();
    nest.error(new Error('kaput'), 'Ctx');
    nest.log({ event: 'ready', port: 3000 }, 'Ctx');
    expect(sink.lines[0]).toMatchObject({ msg: 'kaput', err: { message: 'kaput', type: 'Error' } });
    expect(sink.lines[1]).toMatchObject({ event: 'ready', port: 3000, context: 'Ctx' });
  });

  it('turns start-up chatter into debug lines', () => {
    const { sink, nest } = setup();
    nest.log('AppModule dependencies initialized', 'InstanceLoader');
    nest.log('Mapped {/health, GET} route', 'RouterExplorer');
    expect(sink.lines.map((l) => l.level)).toEqual(['debug', 'debug']);
  });
});
