/** Processes, ports and waiting for the browser tests. Everything started here is stopped by its pid. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';

/** A free TCP port on 127.0.0.1 below 32768 (the ephemeral range starts there). */
export async function freePort(taken: Set<number> = new Set()): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (taken.has(port)) continue;
    const ok = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (ok) {
      taken.add(port);
      return port;
    }
  }
  throw new Error('no free port found between 20000 and 32000');
}

export type Service = { name: string; child: ChildProcess; logFile: string; exited: Promise<number | null> };

/** Starts a process with its output in a log file. */
export function startService(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string },
): Service {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile, { flags: 'w' });
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, child, logFile: options.logFile, exited };
}

/** Stops one service: SIGTERM, then SIGKILL after 5 s. */
export async function stopService(service: Service | undefined): Promise<void> {
  if (!service || service.child.exitCode !== null || service.child.pid === undefined) return;
  service.child.kill('SIGTERM');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), 5_000);
  await service.exited;
  clearTimeout(timer);
}

/** Runs a command to completion; rejects with the tail of its output when it fails. */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output.slice(-3000)}`)),
    );
  });
}

/** Polls a URL until it answers 2xx, the service dies, or the time is up. */
export async function waitForHttp(url: string, service: Service, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let died = false;
  void service.exited.then(() => (died = true));
  while (Date.now() < deadline) {
    if (died) throw new Error(`${service.name} exited during start-up; see ${service.logFile}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `${service.name} did not answer ${url} within ${timeoutMs / 1000} s; see ${service.logFile}`,
  );
}
