/**
 * Child process of the gateway benchmark: a bare ocpp-rpc RPCServer (strict mode, like the gateway) that
 * only answers, with no authentication, database, Redis or logging. The ceiling the gateway is compared to.
 * Prints `{"ready":true,"port":N}` on stdout once listening; exits on SIGTERM. Env: BENCH_PORT.
 */
import { RPCServer } from 'ocpp-rpc';

async function main(): Promise<void> {
  const server = new RPCServer({ protocols: ['ocpp1.6'], strictMode: true });
  server.on('client', (client) => {
    client.handle('BootNotification', () => ({
      status: 'Accepted',
      currentTime: new Date().toISOString(),
      interval: 60,
    }));
    client.handle('Heartbeat', () => ({ currentTime: new Date().toISOString() }));
    client.handle('MeterValues', () => ({}));
    client.handle('StartTransaction', () => ({
      transactionId: Math.floor(Math.random() * 2 ** 31),
      idTagInfo: { status: 'Accepted' },
    }));
    client.handle('StopTransaction', () => ({}));
  });
  const port = Number(process.env['BENCH_PORT']);
  await server.listen(port, '127.0.0.1');
  process.stdout.write(`${JSON.stringify({ ready: true, port })}\n`);
  process.on('SIGTERM', () => {
    void server.close({ force: true }).finally(() => process.exit(0));
  });
}

main().catch((error) => {
  process.stderr.write(`bare server process failed: ${String(error?.stack ?? error)}\n`);
  process.exit(1);
});
