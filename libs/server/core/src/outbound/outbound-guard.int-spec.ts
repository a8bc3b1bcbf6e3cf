import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundAllowList, OutboundGuard } from './outbound-guard';

/** The guard against real local HTTP servers (loopback and `localhost`: no hosts file, no DNS server). */
describe('outbound guard: requests and redirects', () => {
  let server: Server;
  let port: number;
  const seen: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const redirect = (location: string, status = 302) => res.writeHead(status, { location }).end();
      switch (req.url) {
        case '/to-metadata':
          return redirect('http://169.254.169.254/latest/meta-data/');
        case '/to-loopback':
          return redirect(`http://127.0.0.1:${port}/ok`);
        case '/to-ok':
          return redirect('/ok');
        case '/loop':
          return redirect('/loop');
        default:
          res.writeHead(200, { 'content-type': 'text/plain' });
          return res.end(`${req.method} ${req.headers.authorization ?? '-'}`);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => seen.splice(0));

  const guard = (...allowed: string[]) => new OutboundGuard(new OutboundAllowList(allowed));
  const at = (path: string) => `http://127.0.0.1:${port}${path}`;

  it('fetches an allowed target and follows a redirect to an allowed one', async () => {
    const res = await guard('127.0.0.1').fetch(at('/to-ok'), { headers: { authorization: 'Bearer t' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('GET Bearer t');
  });

  it('refuses a redirect to the metadata address without requesting it', async () => {
    await expect(guard('127.0.0.1').fetch(at('/to-metadata'))).rejects.toMatchObject({
      name: 'OutboundTargetDenied',
      message:
        '169.254.169.254 is a link-local, metadata or reserved address, where outbound requests never go',
    });
    expect(seen).toEqual(['GET /to-metadata']);
  });

  it('checks each redirect like the first target: an address allowed by name only is refused', async () => {
    const viaName = `http://localhost:${port}/to-loopback`;
    await expect(guard('localhost').fetch(viaName)).rejects.toMatchObject({
      name: 'OutboundTargetDenied',
      message:
        '127.0.0.1 is an internal address: an administrator must allow 127.0.0.1 (OUTBOUND_ALLOWED_HOSTS)',
    });
    expect(seen).toEqual(['GET /to-loopback']);
    expect((await guard('localhost', '127.0.0.1').fetch(viaName)).status).toBe(200);
  });

  it('refuses an internal target nobody allowed, before connecting', async () => {
    await expect(guard().fetch(at('/ok'))).rejects.toMatchObject({ name: 'OutboundTargetDenied' });
    expect(seen).toEqual([]);
  });

  it('connects through its own lookup for a name', async () => {
    const res = await guard('localhost').fetch(`http://localhost:${port}/ok`, { method: 'POST', body: '{}' });
    expect(await res.text()).toBe('POST -');
  });

  it('a 302 after a POST continues as a GET; redirects stop after the limit', async () => {
    const res = await guard('127.0.0.1').fetch(at('/to-ok'), { method: 'POST', body: 'x' });
    expect(await res.text()).toBe('GET -');
    expect(seen).toEqual(['POST /to-ok', 'GET /ok']);
    await expect(guard('127.0.0.1').fetch(at('/loop'), { maxRedirects: 3 })).rejects.toThrow(
      `more than 3 redirects from ${at('/loop')}`,
    );
    expect((await guard('127.0.0.1').fetch(at('/to-ok'), { maxRedirects: 0 })).status).toBe(302);
  });

  it('a TCP connection goes to a checked address only', async () => {
    const socket = await guard('localhost').connect('localhost', port);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.destroy();
    await expect(guard().connect('localhost', port)).rejects.toMatchObject({ name: 'OutboundTargetDenied' });
  });
});
