import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** Labels attached to stations (the only code touching station_label). */
@Injectable()
export class StationLabelRepository {
  constructor(private readonly db: DataSource) {}

  async typesOf(labelIds: number[]): Promise<Map<number, string>> {
    const rows = (await this.db.query(`SELECT id, type FROM asset_label WHERE id = ANY($1::int[])`, [
      labelIds,
    ])) as { id: number; type: string }[];
    return new Map(rows.map((r) => [Number(r.id), r.type]));
  }

  async replace(m: EntityManager, stationId: number, labelIds: number[]): Promise<void> {
    await m.query(`DELETE FROM station_label WHERE station_id = $1`, [stationId]);
    await m.query(
      `INSERT INTO station_label (station_id, label_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING`,
      [stationId, labelIds],
    );
  }
}
