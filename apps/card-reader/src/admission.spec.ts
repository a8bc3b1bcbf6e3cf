import { admit, isLoopbackAddress } from './admission';

const CONSOLE = ['http://localhost:4200', 'http://127.0.0.1:4200'];

describe('isLoopbackAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.5', false],
    ['192.168.1.20', false],
    ['::ffff:192.168.1.20', false],
    ['fe80::1', false],
    ['128.0.0.1', false],
    ['localhost', false],
    ['', false],
    [undefined, false],
  ])('%p: %p', (address, loopback) => {
    expect(isLoopbackAddress(address)).toBe(loopback);
  });
});

describe('admit', () => {
  it.each([
    ['a local program (no Origin)', '127.0.0.1', undefined, true],
    ['the console in development', '127.0.0.1', 'http://localhost:4200', true],
    ['the console over IPv6 loopback', '::1', 'http://127.0.0.1:4200', true],
    ['another site open in the operator’s browser', '127.0.0.1', 'https://evil.example', false],
    ['the console’s host on another port', '127.0.0.1', 'http://localhost:4201', false],
    ['a sandboxed page', '127.0.0.1', 'null', false],
    ['another machine on the network', '192.168.1.20', undefined, false],
    ['another machine posing as the console', '10.1.2.3', 'http://localhost:4200', false],
  ])('%s: %p', (_name, remoteAddress, origin, admitted) => {
    expect(admit({ remoteAddress, origin }, CONSOLE).ok).toBe(admitted);
  });
});
