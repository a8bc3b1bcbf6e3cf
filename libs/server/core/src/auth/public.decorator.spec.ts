import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { isPublicRoute, Public } from './public.decorator';

@Public()
class OpenController {
  list(): void {}
}

class MixedController {
  @Public()
  open(): void {}
  closed(): void {}
}

function contextFor(cls: new () => object, method: string): ExecutionContext {
  const handler = (cls.prototype as Record<string, unknown>)[method];
  return { getHandler: () => handler, getClass: () => cls } as unknown as ExecutionContext;
}

describe('@Public()', () => {
  const reflector = new Reflector();

  it.each([
    ['a handler of a public controller', OpenController, 'list', true],
    ['a public handler', MixedController, 'open', true],
    ['an unmarked handler', MixedController, 'closed', false],
  ] as const)('%s -> %s', (_case, cls, method, expected) => {
    expect(isPublicRoute(reflector, contextFor(cls, method))).toBe(expected);
  });
});
