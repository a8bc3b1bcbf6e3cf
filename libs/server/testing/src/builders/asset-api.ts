import type request from 'supertest';
import { aGun, aLabel, aPile, aRegion, aStation, type Body } from './asset-bodies';

/** A running Nest app's HTTP client (supertest on its server). */
export type HttpClient = () => ReturnType<typeof request>;
/** The header of a signed-in user. */
export type Auth = { authorization: string };
/** A record as the api answers it. */
export type Row = Body & { id: number };

/** The label categories every station needs one label of. */
export const STATION_LABEL_TYPES = ['payment', 'nationalStandard', 'chargingType'] as const;

export type ApiDepot = {
  regionId: number;
  /** A label of each of STATION_LABEL_TYPES, in that order. */
  labelIds: number[];
  station: Row;
  pile: Row;
  guns: Row[];
  chargePointId: string;
};

/**
 * The basic-data api as a test drives it, signed in as `who`: `create` posts a body (the builders of
 * asset-bodies) and throws on anything but a 201, so a broken setup fails where it happens.
 */
export class AssetApi {
  constructor(
    private readonly http: HttpClient,
    private readonly who: Auth,
  ) {}

  /** POST /api/<kind>. */
  async create(kind: string, body: Body): Promise<Row> {
    const res = await this.http().post(`/api/${kind}`).set(this.who).send(body);
    if (res.status !== 201) throw new Error(`create ${kind} -> ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Row;
  }

  /** A label of each category a station needs; their ids in STATION_LABEL_TYPES order. */
  async stationLabels(): Promise<number[]> {
    const labels = await Promise.all(STATION_LABEL_TYPES.map((type) => this.create('label', aLabel(type))));
    return labels.map((label) => label.id);
  }

  /**
   * A station with a pile and its guns (gun 1 unless `guns` says otherwise), with the region and labels
   * the station needs unless given (a second depot can share the first one's).
   */
  async depot(
    o: { regionId?: number; labelIds?: number[]; station?: Body; pile?: Body; guns?: Body[] } = {},
  ): Promise<ApiDepot> {
    const regionId = o.regionId ?? (await this.create('region', aRegion())).id;
    const labelIds = o.labelIds ?? (await this.stationLabels());
    const station = await this.create('station', aStation(regionId, labelIds, o.station));
    const pile = await this.create('pile', aPile(station.id, o.pile));
    const guns: Row[] = [];
    for (const gun of o.guns ?? [{ name: 'Gun 1', channelNumber: 1 }])
      guns.push(await this.create('gun', aGun(pile.id, gun)));
    return { regionId, labelIds, station, pile, guns, chargePointId: String(pile['chargePointId']) };
  }
}
