import { OrderVersions1764130000000 } from './1764130000000-order-versions';
import { migratedDatabase, type MigratedDatabase } from './fixtures/migrated-database';

// Held orders' reason sentences become codes; the amend button goes to whoever may review.
describe('order versions and reason codes (real PostgreSQL, all migrations)', () => {
  const migration = new OrderVersions1764130000000();
  let db: MigratedDatabase;
  const q = (sql: string, params?: unknown[]) => db.q(sql, params);
  const order = (tx: number, reasons: string[], payStatus = 3) =>
    q(
      `INSERT INTO charging_order (order_no, charge_point_id, connector_id, transaction_id, stopped_at,
         meter_stop_wh, end_reason, stop_kind, pay_status, abnormal_reasons)
       VALUES ($1, 'CP-OLD', 1, $2, now(), 1000, 'Local', 'normal', $3, $4)`,
      [`CO-OLD-${tx}`, tx, payStatus, reasons],
    );
  const reasonsOf = async () =>
    (await q(`SELECT transaction_id, abnormal_reasons FROM charging_order ORDER BY transaction_id`)).map(
      (r) => [r['transaction_id'], r['abnormal_reasons']],
    );

  beforeAll(async () => {
    db = await migratedDatabase('order-versions-test');
  }, 60_000);

  afterAll(() => db?.close());

  it('turns every sentence settlement wrote into its code, and decimal holds into meterFractional', async () => {
    await migration.down(db.runner);
    await order(1, [
      'lost record: unknown transaction, a stop without a start (quarantined for reconciliation)',
    ]);
    await order(2, ['unknown transaction: stop without a start (quarantined for reconciliation)']);
    await order(3, [
      'lost record: the start of the transaction did not arrive within 10 minutes of its stop',
    ]);
    await order(4, [
      'meter data error: stop time is before start time',
      'meter data error: implausible meter values reported by the pile',
      'meter data error: meter register decreased',
    ]);
    await order(5, ['meter data error: negative or fractional meter value']);
    await order(6, ['negative or fractional meter value', 'SoC out of range 0-100']);
    await order(7, [
      "electricity not matching meter: energy beyond battery capacity (121000 Wh > 120 % of 闽A12345's 100000 Wh)",
      'energy beyond battery capacity (> 1000000 Wh)',
    ]);
    await order(8, [
      'start and end SOC error: start SoC 80 % is above end SoC 40 %',
      'vehicle match failure: no vehicle has the VIN LZZ1234567890ABCD',
      'SOC abnormal: SoC out of range 0-100',
      'no price plan in force for the session',
    ]);
    await order(9, [], 0);
    // Order 6's readings include a negative register: its decimal hold was a negative one.
    await q(
      `INSERT INTO billing_reading (charge_point_id, transaction_id, measurand, at, value)
       VALUES ('CP-OLD', 6, 'Energy.Active.Import.Register', now(), -3.5)`,
    );

    await migration.up(db.runner);
    expect(await reasonsOf()).toEqual([
      [1, ['unknownTransaction']],
      [2, ['unknownTransaction']],
      [3, ['startMissing']],
      [4, ['stopBeforeStart', 'meterFlagged', 'meterDecreased']],
      [5, ['meterFractional']],
      [6, ['meterNegative', 'socOutOfRange']],
      [7, ['beyondCapacity', 'beyondCapacity']],
      [8, ['socFalling', 'noVehicle', 'socOutOfRange', 'noPricePlan']],
      [9, []],
    ]);
    expect(await q(`SELECT DISTINCT version FROM charging_order`)).toEqual([{ version: 1 }]);
  });

  it('refuses to migrate a reason no code stands for, naming it', async () => {
    await migration.down(db.runner);
    await order(10, ['typed in by hand']);
    await expect(migration.up(db.runner)).rejects.toThrow(/"typed in by hand"/);
    await q(`DELETE FROM charging_order WHERE transaction_id = 10`);
    // The failed run left the tables it made before the check: a real run is one transaction.
    await q(`DROP TABLE billing_repeat_stop, charging_order_version`);
    await q(`ALTER TABLE charging_order DROP COLUMN version, DROP COLUMN abandon_rule`);
    await migration.up(db.runner);
  });

  it('grants the amend button to the roles that review held orders', async () => {
    const holders = async (code: string) =>
      (
        await q(
          `SELECT r.code FROM sys_role r JOIN sys_role_resource rr ON rr.role_id = r.id
             JOIN sys_resource s ON s.id = rr.resource_id WHERE s.code = $1 ORDER BY r.code`,
          [code],
        )
      ).map((r) => r['code']);
    expect(await holders('charging_order:amend')).toEqual(await holders('charging_order:review'));
    expect(await holders('charging_order:amend')).toContain('admin');
  });
});
