import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Post,
  Res,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  AuthPrincipal,
  CONTENT_TYPES,
  CurrentPrincipal,
  type HttpResponse,
  idResponseSchema,
  INT32_MAX,
  intParam,
  RequirePermissions,
  ValidationException,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import { LimitedFileInterceptor } from '@voltdepot/server-spreadsheet';
import { z } from 'zod';
import {
  PICTURE_MAX_BYTES,
  PICTURE_SIZE_MESSAGE,
  StationPicturesService,
  type UploadedPicture,
} from './station-pictures.service';

const id = intParam(1, INT32_MAX);
const stationParams = z.object({ id });
const pictureParams = z.object({ id, pictureId: id });
const uploadQuery = z
  .object({
    sitePlan: z
      .enum(['true', 'false'], { message: "sitePlan must be 'true' or 'false'" })
      .optional()
      .describe("'true': the station's site plan (replaces the one it had; not one of the nine pictures)"),
  })
  .strict();

/** Station pictures: JPG or PNG of at most 2MB (business-areas §5), stored with the station. */
@ApiTags('basic: station')
@ApiBearerAuth()
@Controller('api/station/:id/picture')
export class StationPicturesController {
  constructor(@Inject(StationPicturesService) private readonly pictures: StationPicturesService) {}

  /** multipart/form-data with one `file`; `?sitePlan=true` makes it the station's site plan. */
  @ApiDoc({
    summary: 'Add a picture or the site plan (JPG or PNG, at most 2 MB)',
    body: 'file',
    response: idResponseSchema,
    errors: [404, 413, 422],
  })
  @Post()
  @RequirePermissions('basic:station:edit')
  @UseInterceptors(
    LimitedFileInterceptor(
      'file',
      PICTURE_MAX_BYTES,
      () => new ValidationException([{ field: 'file', message: PICTURE_SIZE_MESSAGE }]),
    ),
  )
  upload(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(stationParams) params: { id: number },
    @ZodQuery(uploadQuery) query: z.infer<typeof uploadQuery>,
    @UploadedFile() file: UploadedPicture | undefined,
  ): Promise<{ id: number }> {
    return this.pictures.add(me, params.id, file, query.sitePlan === 'true');
  }

  @ApiDoc({ summary: 'A picture', produces: [CONTENT_TYPES.jpeg, CONTENT_TYPES.png], errors: [404] })
  @Get(':pictureId')
  @RequirePermissions('basic:station:query')
  async get(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(pictureParams) params: { id: number; pictureId: number },
    @Res() res: HttpResponse,
  ): Promise<void> {
    const picture = await this.pictures.get(me, params.id, params.pictureId);
    res.setHeader('content-type', picture.contentType);
    res.setHeader('content-length', String(picture.data.length));
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('cache-control', 'private, max-age=3600');
    res.setHeader('content-disposition', `inline; filename="${picture.fileName}"`);
    res.end(picture.data);
  }

  @ApiDoc({ errors: [404] })
  @Delete(':pictureId')
  @HttpCode(204)
  @RequirePermissions('basic:station:edit')
  async remove(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(pictureParams) params: { id: number; pictureId: number },
  ): Promise<void> {
    await this.pictures.remove(me, params.id, params.pictureId);
  }
}
