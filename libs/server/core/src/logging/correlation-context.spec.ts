import {
  currentCorrelationId,
  isValidCorrelationId,
  newCorrelationId,
  runWithCorrelation,
} from './correlation-context';

describe('correlation context', () => {
  it('has no id outside a context', () => {
    expect(currentCorrelationId()).toBeUndefined();
  });

  it('keeps the id across awaits and timers, and returns the function result', async () => {
    const seen = await runWithCorrelation('req-1', async () => {
      await Promise.resolve();
      const afterTimer = await new Promise<string | undefined>((resolve) =>
        setTimeout(() => resolve(currentCorrelationId()), 1),
      );
      return [currentCorrelationId(), afterTimer];
    });
    expect(seen).toEqual(['req-1', 'req-1']);
    expect(currentCorrelationId()).toBeUndefined();
  });

  it('keeps concurrent contexts apart and lets an inner one shadow the outer', async () => {
    const run = (id: string, delay: number) =>
      runWithCorrelation(id, async () => {
        await new Promise((r) => setTimeout(r, delay));
        return currentCorrelationId();
      });
    expect(await Promise.all([run('a', 5), run('b', 1)])).toEqual(['a', 'b']);
    expect(
      runWithCorrelation('outer', () => [
        runWithCorrelation('inner', () => currentCorrelationId()),
        currentCorrelationId(),
      ]),
    ).toEqual(['inner', 'outer']);
  });

  it.each<[unknown, boolean]>([
    ['abc-123', true],
    ['A.b_c-9', true],
    ['x'.repeat(128), true],
    ['x'.repeat(129), false],
    ['', false],
    ['has space', false],
    ['a,b', false],
    ['new\nline', false],
    ['ünïcode', false],
    [['a', 'b'], false],
    [undefined, false],
  ])('isValidCorrelationId(%j) is %s', (value, expected) => {
    expect(isValidCorrelationId(value)).toBe(expected);
  });

  it('makes valid ids', () => {
    const id = newCorrelationId();
    expect(isValidCorrelationId(id)).toBe(true);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
