import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export type StationPicture = { id: number; contentType: string; fileName: string; data: Buffer };

/** Station pictures (the only code touching station_picture). */
@Injectable()
export class StationPictureRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Adds the picture unless the station already has `max` ('full') or is gone meanwhile ('missing'); a
   * site plan replaces the station's site plan instead and is not counted.
   */
  async add(
    stationId: number,
    picture: { contentType: string; fileName: string; data: Buffer },
    max: number,
    sitePlan = false,
  ): Promise<number | 'full' | 'missing'> {
    return this.db.transaction(async (m) => {
      // Serialises uploads to one station so two of them cannot both pass the count.
      const station = (await m.query(`SELECT id FROM station WHERE id = $1 FOR UPDATE`, [
        stationId,
      ])) as unknown[];
      if (station.length === 0) return 'missing';
      if (sitePlan) {
        await m.query(`DELETE FROM station_picture WHERE station_id = $1 AND site_plan`, [stationId]);
      } else {
        const [{ count }] = (await m.query(
          `SELECT count(*)::int AS count FROM station_picture WHERE station_id = $1 AND NOT site_plan`,
          [stationId],
        )) as { count: number }[];
        if (count >= max) return 'full';
      }
      const rows = (await m.query(
        `INSERT INTO station_picture (station_id, content_type, file_name, size_bytes, data, site_plan)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [stationId, picture.contentType, picture.fileName, picture.data.length, picture.data, sitePlan],
      )) as { id: number }[];
      return Number(rows[0].id);
    });
  }

  async find(stationId: number, pictureId: number): Promise<StationPicture | null> {
    const rows = (await this.db.query(
      `SELECT id, content_type, file_name, data FROM station_picture WHERE id = $1 AND station_id = $2`,
      [pictureId, stationId],
    )) as { id: number; content_type: string; file_name: string; data: Buffer }[];
    if (rows.length === 0) return null;
    const r = rows[0];
    return { id: Number(r.id), contentType: r.content_type, fileName: r.file_name, data: r.data };
  }

  async remove(stationId: number, pictureId: number): Promise<boolean> {
    const result = (await this.db.query(
      `DELETE FROM station_picture WHERE id = $1 AND station_id = $2 RETURNING id`,
      [pictureId, stationId],
    )) as [unknown[], number];
    return result[1] > 0;
  }
}
