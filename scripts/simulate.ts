/**
 * Simulated OCPP 1.6J piles against a running gateway: `npm run simulate -- --help` for the flags.
 *
 * Each gun charges `--sessions` buses one after another (random start SoC 15-45 %, target 85-100 %);
 * a share `--abnormal-rate` of sessions ends with an abnormal reason instead of EVDisconnected, and a
 * share `--fault-rate` is preceded by a gun fault that clears after `--fault-for` seconds.
 * `--register` (needs DATABASE_URL, and the gateway's PILE_PASSWORD_KEY unless both run on the development
 * key) first registers the piles (active, the password hashed as the api stores it) and the id tags. The
 * "Field behaviours" flags reproduce what real piles do (issue #23): decimal registers, samples stamped
 * after the stop, double stops, abandoned sessions, no Finishing.
 * Prints one JSON line per event; on exit (all sessions done, --duration-s elapsed, or Ctrl-C) prints
 * `{"summary": [...]}` with the simulator's own record of every session, for settlement checks.
 * The piles answer every OCPP 1.6 central-system command (see libs/server/ocpp-simulator).
 */
import { createDataSource } from '@voltdepot/server-database';
import {
  FeatureProfiles,
  SimulatedPile,
  type FeatureProfile,
  type SessionRecord,
} from '@voltdepot/server-ocpp-simulator';
import { pilePasswordHasherFromEnv } from '@voltdepot/server-pile-credentials';
import type { StopReason } from '@voltdepot/shared-ocpp';

const USAGE = `Usage: npm run simulate -- [flags]

Connection
  --url <ws-url>               gateway endpoint without the pile id (ws://127.0.0.1:9000/ocpp)
  --piles <n>                  number of piles (1)
  --guns <n>                   guns (connectors) per pile (2)
  --prefix <text>              pile id prefix; ids are <prefix>001, <prefix>002, ... (SIM-)
  --password <text>            one password for every pile
  --password-template <text>   per-pile password, {id} is replaced by the pile id (pw-{id})
  --register                   register piles and id tags first (needs DATABASE_URL; PILE_PASSWORD_KEY as the gateway's)

Charging
  --id-tags <a,b,...>          id tags to charge with (BUS-001.. one per gun)
  --sessions <n>               sessions per gun, one after another; 0 = only connect (1)
  --time-scale <x>             simulated seconds per real second (60)
  --meter-interval-ms <ms>     real time between two meter samples (1000)
  --max-power-w <w>            power limit per gun (150000)
  --voltage-v <v>              supply voltage for ampere charging profiles (400)
  --feature-profiles <a,b>     supported OCPP feature profiles (${FeatureProfiles.join(',')})

Faults and network
  --abnormal-rate <0..1>       share of sessions ending abnormally (0.1)
  --fault-rate <0..1>          share of sessions preceded by a gun fault (0)
  --fault-for <s>              how long such a fault lasts (2)
  --offline-every <s>          drop every pile's connection this often (0 = never)
  --offline-for <s>            and keep it down this long; transaction messages queue meanwhile (5)
  --same-message-id            retransmit a transaction message with the same message id (else a new one)

Field behaviours (what real piles do)
  --decimal-register           energy register with decimals in samples ("92.49"); meterStart/meterStop
                               stay whole Wh, rounded down (up to 1 Wh below the last sample)
  --late-sample-ms <ms>        after each stop, a MeterValues of the transaction stamped <ms> after the
                               stop's timestamp, a little above meterStop (0 = never)
  --double-stop-rate <0..1>    share of sessions stopped twice: a second StopTransaction with another
                               reason and a higher meterStop (0)
  --double-stop-extra-wh <wh>  how much higher the second meterStop is (72)
  --no-finishing               guns go Charging -> Available at the stop, without Finishing
  --abandon-rate <0..1>        share of sessions the pile abandons mid-session without a StopTransaction (0)
  --abandon-how <how>          reboot: power loss, the pile boots again with its guns Available (every
                               session of the pile is lost); vanish: the pile goes away for good;
                               forget: the gun reports Available, the pile stays online (reboot)
  --replay-stop-after-s <s>    after a reboot the pile still sends each lost StopTransaction, this long
                               after booting again (unset: the stops are lost)

Run
  --duration-s <s>             stop after this long (0 = when all sessions are done)
  --help                       print this help
`;

const FLAGS = new Set([...USAGE.matchAll(/^\s+--([a-z-]+)/gm)].map((m) => m[1]));
const BOOLEAN_FLAGS = new Set(['register', 'same-message-id', 'decimal-register', 'no-finishing', 'help']);
const ABANDON_HOW = ['reboot', 'vanish', 'forget'] as const;

function arg(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return undefined;
  if (BOOLEAN_FLAGS.has(name)) return 'true';
  const value = process.argv[index + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
  return value;
}

function num(name: string, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const raw = arg(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max)
    throw new Error(`--${name} must be a number in [${min}, ${max}], got '${raw}'`);
  return value;
}

function checkFlags(): void {
  for (const token of process.argv.slice(2))
    if (token.startsWith('--') && !FLAGS.has(token.slice(2)))
      throw new Error(`unknown flag ${token} (see --help)`);
}

const out = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(line)}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ABNORMAL: StopReason[] = ['EmergencyStop', 'PowerLoss', 'Other', 'UnlockCommand'];
const FAULTS = ['GroundFailure', 'HighTemperature', 'OverCurrentFailure', 'EVCommunicationError'];

async function register(ids: string[], passwordOf: (id: string) => string, idTags: string[]): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('--register needs DATABASE_URL');
  const dataSource = createDataSource({ url, poolSize: 2, applicationName: 'voltdepot-simulate' });
  await dataSource.initialize();
  try {
    const passwords = pilePasswordHasherFromEnv();
    for (const id of ids) {
      await dataSource.query(
        `INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ($1, 'active', $2)
         ON CONFLICT (charge_point_id) DO UPDATE
           SET state = 'active', password_hash = EXCLUDED.password_hash, password_rehashed_from = NULL`,
        [id, passwords.hash(passwordOf(id))],
      );
    }
    for (const tag of idTags) {
      await dataSource.query(
        `INSERT INTO id_tag (id_tag, status) VALUES ($1, 'Accepted') ON CONFLICT (id_tag) DO NOTHING`,
        [tag],
      );
    }
    out({ event: 'registered', piles: ids.length, idTags: idTags.length });
  } finally {
    await dataSource.destroy();
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  checkFlags();
  const url = arg('url') ?? 'ws://127.0.0.1:9000/ocpp';
  const count = num('piles', 1, { min: 1 });
  const guns = num('guns', 2, { min: 1, max: 99 });
  const prefix = arg('prefix') ?? 'SIM-';
  const sessionsPerGun = num('sessions', 1);
  const abnormalRate = num('abnormal-rate', 0.1, { max: 1 });
  const faultRate = num('fault-rate', 0, { max: 1 });
  const faultForS = num('fault-for', 2);
  const offlineEveryS = num('offline-every', 0);
  const offlineForS = num('offline-for', 5);
  const durationS = num('duration-s', 0);
  const doubleStopRate = num('double-stop-rate', 0, { max: 1 });
  const doubleStopExtraWh = num('double-stop-extra-wh', 72, { min: 1 });
  const abandonRate = num('abandon-rate', 0, { max: 1 });
  const abandonHow = arg('abandon-how') ?? 'reboot';
  if (!(ABANDON_HOW as readonly string[]).includes(abandonHow))
    throw new Error(`--abandon-how must be one of ${ABANDON_HOW.join(', ')}, got '${abandonHow}'`);
  const replayStopAfterS =
    arg('replay-stop-after-s') === undefined ? undefined : num('replay-stop-after-s', 0);
  const featureProfiles = (arg('feature-profiles') ?? FeatureProfiles.join(','))
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const profile of featureProfiles)
    if (!(FeatureProfiles as readonly string[]).includes(profile))
      throw new Error(`--feature-profiles: unknown profile '${profile}' (${FeatureProfiles.join(', ')})`);
  const template = arg('password-template') ?? arg('password') ?? 'pw-{id}';
  const passwordOf = (id: string) => template.replace('{id}', id);
  const ids = Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(3, '0')}`);
  const idTags = (
    arg('id-tags') ??
    Array.from({ length: count * guns }, (_, i) => `BUS-${String(i + 1).padStart(3, '0')}`).join(',')
  )
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

  if (arg('register')) await register(ids, passwordOf, idTags);

  const piles = ids.map(
    (id) =>
      new SimulatedPile({
        url,
        chargePointId: id,
        password: passwordOf(id),
        connectors: guns,
        timeScale: num('time-scale', 60),
        meterIntervalMs: num('meter-interval-ms', 1000),
        maxPowerW: num('max-power-w', 150_000),
        voltageV: num('voltage-v', 400, { min: 1 }),
        featureProfiles: featureProfiles as FeatureProfile[],
        sameMessageIdOnRetry: arg('same-message-id') === 'true',
        decimalRegister: arg('decimal-register') === 'true',
        lateSampleMs: num('late-sample-ms', 0),
        skipFinishing: arg('no-finishing') === 'true',
        bootRetryMs: 5_000,
        log: (line) => out({ log: line }),
      }),
  );

  let stopping = false;
  const finish = async (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const pile of piles) {
      await pile.drained(5_000).catch(() => undefined);
      await pile.stop();
    }
    const summary = piles.flatMap((pile) =>
      pile.sessions.map((s: SessionRecord) => ({ chargePointId: pile.chargePointId, ...s })),
    );
    out({ summary });
    process.exit(code);
  };
  process.on('SIGINT', () => void finish(0));
  process.on('SIGTERM', () => void finish(0));
  if (durationS > 0) setTimeout(() => void finish(0), durationS * 1000).unref();

  await Promise.all(
    piles.map(async (pile) => {
      pile.on('transactionStarted', (s: SessionRecord) =>
        out({
          event: 'started',
          chargePointId: pile.chargePointId,
          connectorId: s.connectorId,
          transactionId: s.transactionId,
        }),
      );
      pile.on('transactionStopped', (s: SessionRecord) =>
        out({
          event: 'stopped',
          chargePointId: pile.chargePointId,
          connectorId: s.connectorId,
          transactionId: s.transactionId,
          energyWh: s.energyWh,
          reason: s.reason,
        }),
      );
      await pile.start();
      out({ event: 'booted', chargePointId: pile.chargePointId, status: pile.registrationStatus });
    }),
  );
  out({ event: 'ready', piles: piles.length, guns });

  // Network outages: each pile drops its connection every --offline-every s (staggered) for --offline-for s.
  if (offlineEveryS > 0) {
    for (const pile of piles) {
      const cycle = async () => {
        while (!stopping) {
          await sleep(offlineEveryS * 1000 * (0.5 + Math.random()));
          if (stopping) return;
          await pile.goOffline();
          out({ event: 'offline', chargePointId: pile.chargePointId });
          await sleep(offlineForS * 1000);
          if (stopping) return;
          await pile
            .goOnline()
            .then(() =>
              out({ event: 'online', chargePointId: pile.chargePointId, queued: pile.pendingMessages }),
            )
            .catch((error: Error) =>
              out({ event: 'reconnect-failed', chargePointId: pile.chargePointId, error: error.message }),
            );
        }
      };
      void cycle();
    }
  }

  // A bus (id tag) charges on one gun at a time: the central system refuses a tag already in a session.
  let tagIndex = 0;
  const tagsInUse = new Set<string>();
  const takeTag = async (): Promise<string> => {
    for (;;) {
      for (let i = 0; i < idTags.length; i++) {
        const tag = idTags[tagIndex++ % idTags.length];
        if (!tagsInUse.has(tag)) {
          tagsInUse.add(tag);
          return tag;
        }
      }
      await sleep(200);
    }
  };
  /** Abandon the session on the gun as `--abandon-how` says; resolves once the pile is back (or gone). */
  const abandon = async (pile: SimulatedPile, connectorId: number) => {
    if (abandonHow === 'forget') await pile.forgetSession(connectorId);
    else if (abandonHow === 'vanish') await pile.vanish();
    else
      await pile.powerLoss({
        ...(replayStopAfterS !== undefined ? { replayStopAfterMs: replayStopAfterS * 1000 } : {}),
      });
    out({ event: 'abandoned', chargePointId: pile.chargePointId, connectorId, how: abandonHow });
  };
  const runGun = async (pile: SimulatedPile, connectorId: number) => {
    for (let n = 0; n < sessionsPerGun && !stopping && !pile.gone; n++) {
      if (Math.random() < faultRate) {
        const errorCode = FAULTS[Math.floor(Math.random() * FAULTS.length)];
        await pile.reportFault(connectorId, errorCode);
        out({ event: 'fault', chargePointId: pile.chargePointId, connectorId, errorCode });
        await sleep(faultForS * 1000);
        await pile.clearFault(connectorId);
      }
      const idTag = await takeTag();
      const abandoned = Math.random() < abandonRate;
      const abnormal = !abandoned && Math.random() < abnormalRate;
      let session: SessionRecord;
      try {
        session = await pile.startSession(connectorId, idTag, {
          startSoc: 15 + Math.random() * 30,
          targetSoc: 85 + Math.random() * 15,
          autoStop: !abnormal && !abandoned,
          ...(Math.random() < doubleStopRate ? { doubleStop: { extraWh: doubleStopExtraWh } } : {}),
        });
      } catch (error) {
        // e.g. the tag is refused, or the connection dropped during Authorize: try the next bus.
        out({
          event: 'start-failed',
          chargePointId: pile.chargePointId,
          connectorId,
          idTag,
          error: (error as Error).message,
        });
        tagsInUse.delete(idTag);
        await sleep(1_000);
        continue;
      }
      if (abnormal || abandoned) {
        await sleep(500 + Math.random() * 2_000);
        if (!session.stoppedAt && abandoned)
          await abandon(pile, connectorId).catch((error: Error) =>
            out({ event: 'abandon-failed', chargePointId: pile.chargePointId, error: error.message }),
          );
        else if (!session.stoppedAt)
          await pile.stopSession(connectorId, ABNORMAL[Math.floor(Math.random() * ABNORMAL.length)]);
      }
      while (!session.stoppedAt && !stopping) await sleep(100);
      // The stop may still be queued (offline): the tag is free once the central system has it.
      await pile.drained(60_000).catch(() => undefined);
      tagsInUse.delete(idTag);
      await sleep(200);
    }
  };
  if (sessionsPerGun > 0) {
    await Promise.all(piles.flatMap((pile) => Array.from({ length: guns }, (_, i) => runGun(pile, i + 1))));
    await finish(0);
  }
}

main().catch((error) => {
  out({ error: (error as Error).message });
  process.exit(1);
});
