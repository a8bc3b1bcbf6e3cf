import { BusinessTimeZonePublic1764180000300 } from './1764180000300-business-time-zone-public';
import { migratedDatabase, type MigratedDatabase } from './fixtures/migrated-database';

describe('businessTimeZone in the public platform settings (real PostgreSQL, all migrations)', () => {
  const migration = new BusinessTimeZonePublic1764180000300();
  let db: MigratedDatabase;
  const setting = async () =>
    (
      await db.q(
        `SELECT config_value, category, is_public FROM sys_platform_config WHERE config_key = 'businessTimeZone'`,
      )
    )[0];

  beforeAll(async () => {
    db = await migratedDatabase('business-time-zone-public-test');
  }, 60_000);

  afterAll(() => db?.close());

  it('is public after the migrations, still a system parameter, seeded Asia/Shanghai', async () => {
    expect(await setting()).toEqual({ config_value: 'Asia/Shanghai', category: 'system', is_public: true });
  });

  it('goes down and up again, keeping a zone an administrator chose', async () => {
    await db.q(`UPDATE sys_platform_config SET config_value = 'UTC' WHERE config_key = 'businessTimeZone'`);
    await migration.down(db.runner);
    expect(await setting()).toMatchObject({ config_value: 'UTC', is_public: false });
    await migration.up(db.runner);
    expect(await setting()).toEqual({ config_value: 'UTC', category: 'system', is_public: true });
  });

  it('seeds the setting where it is missing', async () => {
    await db.q(`DELETE FROM sys_platform_config WHERE config_key = 'businessTimeZone'`);
    await migration.up(db.runner);
    expect(await setting()).toEqual({ config_value: 'Asia/Shanghai', category: 'system', is_public: true });
  });
});
