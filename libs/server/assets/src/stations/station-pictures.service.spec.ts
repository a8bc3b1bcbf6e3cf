import { type AuthPrincipal, ValidationException } from '@voltdepot/server-core';
import { AssetsErrorCode, AssetsException } from '../assets.exception';
import type { StationPicture } from './station-picture.repository';
import {
  PICTURE_MAX_BYTES,
  PICTURE_MISSING_MESSAGE,
  PICTURE_SIZE_MESSAGE,
  PICTURE_TYPE_MESSAGE,
  PICTURES_PER_STATION,
  StationPicturesService,
  type UploadedPicture,
} from './station-pictures.service';

/** Station 1 is the caller's; its pictures are kept in memory, at most `max` per station. */
class FakePictures {
  readonly stored: (StationPicture & { stationId: number })[] = [];
  stationGone = false;

  async scopeOf() {
    return { rootIds: [1], pathPatterns: ['/1/%'] };
  }
  async visible(_scope: unknown, id: number) {
    if (id !== 1) throw new AssetsException(AssetsErrorCode.NotFound, `Station ${id} does not exist`);
    return { id };
  }
  async add(
    stationId: number,
    picture: { contentType: string; fileName: string; data: Buffer },
    max: number,
  ) {
    if (this.stationGone) return 'missing' as const;
    if (this.stored.filter((p) => p.stationId === stationId).length >= max) return 'full' as const;
    const id = this.stored.length + 1;
    this.stored.push({ id, stationId, ...picture } as StationPicture & { stationId: number });
    return id;
  }
  async find(stationId: number, pictureId: number) {
    return this.stored.find((p) => p.stationId === stationId && p.id === pictureId) ?? null;
  }
  async remove(stationId: number, pictureId: number) {
    const index = this.stored.findIndex((p) => p.stationId === stationId && p.id === pictureId);
    if (index >= 0) this.stored.splice(index, 1);
    return index >= 0;
  }
}

const me = { userId: 1, username: 'admin' } as AuthPrincipal;
const png = (size = 256, originalname = 'gate.png'): UploadedPicture => {
  const buffer = Buffer.alloc(size, 7);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(buffer);
  return { originalname, size, buffer };
};

function setup() {
  const fake = new FakePictures();
  return { fake, service: new StationPicturesService(fake, fake) };
}

describe('StationPicturesService', () => {
  it('stores a PNG under a file name safe to send back', async () => {
    const { fake, service } = setup();
    await expect(service.add(me, 1, png(256, 'gate "north"/<1>.png'))).resolves.toEqual({ id: 1 });
    expect(fake.stored[0]).toMatchObject({ contentType: 'image/png', fileName: 'gate _north___1_.png' });
  });

  it.each<[string, UploadedPicture | undefined, string]>([
    ['no file', undefined, PICTURE_MISSING_MESSAGE],
    ['an empty file', png(0), PICTURE_MISSING_MESSAGE],
    ['a file over 2MB', png(PICTURE_MAX_BYTES + 1), PICTURE_SIZE_MESSAGE],
    ['a PNG named .gif', png(256, 'gate.gif'), PICTURE_TYPE_MESSAGE],
  ])('refuses %s (400 on file), storing nothing', async (_case, file, message) => {
    const { fake, service } = setup();
    const refused = service.add(me, 1, file);
    await expect(refused).rejects.toBeInstanceOf(ValidationException);
    await expect(refused).rejects.toMatchObject({ fields: [{ field: 'file', message }] });
    expect(fake.stored).toEqual([]);
  });

  it('checks the station before the file: a station outside the scope is a 404 even for a bad file', async () => {
    const { service } = setup();
    await expect(service.add(me, 2, undefined)).rejects.toMatchObject({ code: AssetsErrorCode.NotFound });
  });

  it(`refuses a picture beyond ${PICTURES_PER_STATION} (422), and a station deleted meanwhile (404)`, async () => {
    const { fake, service } = setup();
    for (let i = 0; i < PICTURES_PER_STATION; i++) await service.add(me, 1, png());
    await expect(service.add(me, 1, png())).rejects.toMatchObject({
      code: AssetsErrorCode.PictureRejected,
      httpStatus: 422,
    });
    fake.stationGone = true;
    await expect(service.add(me, 1, png())).rejects.toMatchObject({ code: AssetsErrorCode.NotFound });
  });

  it('reads and deletes only pictures of that station (404 otherwise)', async () => {
    const { service } = setup();
    const { id } = await service.add(me, 1, png());
    await expect(service.get(me, 1, id)).resolves.toMatchObject({ id });
    await service.remove(me, 1, id);
    await expect(service.get(me, 1, id)).rejects.toMatchObject({ code: AssetsErrorCode.NotFound });
    await expect(service.remove(me, 1, id)).rejects.toMatchObject({ code: AssetsErrorCode.NotFound });
  });
});
