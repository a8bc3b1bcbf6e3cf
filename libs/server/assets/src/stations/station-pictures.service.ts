import { type AuthPrincipal, ValidationException } from '@voltdepot/server-core';
import { AssetsErrorCode, AssetsException } from '../assets.exception';
import type { AssetCrudService } from '../shared/asset-crud.service';
import type { StationPicture, StationPictureRepository } from './station-picture.repository';

/** business-areas §5 and §9: station image JPG or PNG, at most 2MB. */
export const PICTURE_MAX_BYTES = 2 * 1024 * 1024;
export const PICTURE_TYPE_MESSAGE = 'Station image must be JPG or PNG';
export const PICTURE_SIZE_MESSAGE = 'Station image must be at most 2MB';
export const PICTURE_MISSING_MESSAGE = 'Station image cannot be empty';
export const PICTURES_PER_STATION = 9;

export type UploadedPicture = { originalname: string; size: number; buffer: Buffer };

const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The picture's type from its first bytes and its name; undefined when it is not a JPG or PNG. */
export function pictureTypeOf(file: UploadedPicture): 'image/jpeg' | 'image/png' | undefined {
  const extension = /\.(jpe?g|png)$/i.exec(file.originalname)?.[1]?.toLowerCase();
  if (extension === 'png' && file.buffer.subarray(0, 8).equals(PNG_MAGIC)) return 'image/png';
  if ((extension === 'jpg' || extension === 'jpeg') && file.buffer.subarray(0, 3).equals(JPEG_MAGIC))
    return 'image/jpeg';
  return undefined;
}

/** Pictures of a station the caller sees (its data scope); a station of another organisation is a 404. */
export class StationPicturesService {
  constructor(
    private readonly stations: Pick<AssetCrudService, 'scopeOf' | 'visible'>,
    private readonly pictures: Pick<StationPictureRepository, 'add' | 'find' | 'remove'>,
  ) {}

  /** A picture, or (`sitePlan`) the station's site plan, which replaces the one it had. */
  async add(
    me: AuthPrincipal,
    stationId: number,
    file: UploadedPicture | undefined,
    sitePlan = false,
  ): Promise<{ id: number }> {
    await this.stations.visible(await this.stations.scopeOf(me), stationId);
    if (file === undefined || file.size === 0) {
      throw new ValidationException([{ field: 'file', message: PICTURE_MISSING_MESSAGE }]);
    }
    if (file.size > PICTURE_MAX_BYTES) {
      throw new ValidationException([{ field: 'file', message: PICTURE_SIZE_MESSAGE }]);
    }
    const contentType = pictureTypeOf(file);
    if (contentType === undefined) {
      throw new ValidationException([{ field: 'file', message: PICTURE_TYPE_MESSAGE }]);
    }
    const fileName = file.originalname.replace(/[^\w.\- ]/g, '_').slice(-128);
    const id = await this.pictures.add(
      stationId,
      { contentType, fileName, data: file.buffer },
      PICTURES_PER_STATION,
      sitePlan,
    );
    if (id === 'missing') {
      // Deleted since it was read.
      throw new AssetsException(AssetsErrorCode.NotFound, `Station ${stationId} does not exist`);
    }
    if (id === 'full') {
      throw new AssetsException(
        AssetsErrorCode.PictureRejected,
        `A station has at most ${PICTURES_PER_STATION} pictures: delete one first`,
      );
    }
    return { id };
  }

  async get(me: AuthPrincipal, stationId: number, pictureId: number): Promise<StationPicture> {
    await this.stations.visible(await this.stations.scopeOf(me), stationId);
    const picture = await this.pictures.find(stationId, pictureId);
    if (picture === null) throw this.missing(stationId, pictureId);
    return picture;
  }

  async remove(me: AuthPrincipal, stationId: number, pictureId: number): Promise<void> {
    await this.stations.visible(await this.stations.scopeOf(me), stationId);
    if (!(await this.pictures.remove(stationId, pictureId))) throw this.missing(stationId, pictureId);
  }

  private missing(stationId: number, pictureId: number): AssetsException {
    return new AssetsException(AssetsErrorCode.NotFound, `Station ${stationId} has no picture ${pictureId}`);
  }
}
