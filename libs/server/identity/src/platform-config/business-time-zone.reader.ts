import type { DataSource } from 'typeorm';
import { isIanaTimeZone, SystemParameterKeys } from './platform-config.service';

/** The zone the platform falls back to when the setting is missing or not a zone (as seeded). */
export const DEFAULT_BUSINESS_TIME_ZONE = 'Asia/Shanghai';

/**
 * Identity's published read of the system setting `businessTimeZone` (the day boundaries of figures
 * and reports) for the other areas: they read it here, not from `sys_platform_config`.
 */
export class BusinessTimeZoneReader {
  constructor(private readonly db: DataSource) {}

  async read(): Promise<string> {
    const rows = (await this.db.query(`SELECT config_value FROM sys_platform_config WHERE config_key = $1`, [
      SystemParameterKeys.BusinessTimeZone,
    ])) as { config_value: string }[];
    const zone = rows[0]?.config_value.trim();
    return zone && isIanaTimeZone(zone) ? zone : DEFAULT_BUSINESS_TIME_ZONE;
  }
}
