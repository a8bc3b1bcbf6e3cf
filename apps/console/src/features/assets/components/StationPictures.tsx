import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Image, Popconfirm, Space, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { assetApi } from '../api/assetApi';
import { assetsQueryKeys } from '../queryKeys';
import { imageProblem, messageOf, type Translate } from '../rules/formRules';

/** One stored picture, fetched with the session's token and shown from an object URL. */
function Picture({
  stationId,
  pictureId,
  canEdit,
  onRemoved,
}: {
  stationId: number;
  pictureId: number;
  canEdit: boolean;
  onRemoved: () => void;
}) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: assetsQueryKeys.picture(stationId, pictureId),
    queryFn: ({ signal }) => assetApi.picture(stationId, pictureId, signal),
    staleTime: Infinity,
  });
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!query.data) return;
    const objectUrl = URL.createObjectURL(query.data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [query.data]);
  return (
    <Space direction="vertical" size={2} align="center">
      <Image src={url} width={96} height={96} style={{ objectFit: 'cover' }} alt={`picture ${pictureId}`} />
      {canEdit && (
        <Popconfirm title={t('assets.common.confirmDelete')} onConfirm={onRemoved}>
          <Typography.Link type="danger">
            <DeleteOutlined />
          </Typography.Link>
        </Popconfirm>
      )}
    </Space>
  );
}

/**
 * Station pictures: JPG or PNG of at most 2MB each (business-areas §5), checked before the upload. With
 * `sitePlan` the one site plan of the depot (the station monitor shows it): an upload replaces it.
 */
export function StationPictures({
  stationId,
  pictureIds,
  canEdit,
  onChanged,
  sitePlan = false,
}: {
  stationId: number;
  pictureIds: number[];
  canEdit: boolean;
  onChanged: () => void;
  sitePlan?: boolean;
}) {
  const { t } = useTranslation();
  const tx = t as unknown as Translate;
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return (
    <Space wrap align="start" data-testid={sitePlan ? 'station-site-plan' : 'station-pictures'}>
      {pictureIds.map((id) => (
        <Picture
          key={id}
          stationId={stationId}
          pictureId={id}
          canEdit={canEdit}
          onRemoved={async () => {
            try {
              await assetApi.removePicture(stationId, id);
            } catch {
              return;
            }
            queryClient.removeQueries({ queryKey: assetsQueryKeys.picture(stationId, id) });
            void message.success(t('assets.common.deleted'));
            onChanged();
          }}
        />
      ))}
      {canEdit && (
        <Upload
          accept=".jpg,.jpeg,.png,image/jpeg,image/png"
          listType="picture-card"
          showUploadList={false}
          beforeUpload={(file) => {
            const problem = imageProblem(file);
            if (problem) {
              void message.error(messageOf(tx, problem));
              return Upload.LIST_IGNORE;
            }
            return true;
          }}
          customRequest={async ({ file, onSuccess, onError }) => {
            try {
              await assetApi.uploadPicture(stationId, file as File, sitePlan);
              onSuccess?.({});
              void message.success(t('assets.station.pictureUploaded'));
              onChanged();
            } catch (error) {
              onError?.(error as Error);
              void message.error(t('assets.station.uploadFailed'));
            }
          }}
        >
          <div>
            <PlusOutlined />
            <div style={{ marginTop: 4 }}>
              {t(sitePlan ? 'assets.station.uploadSitePlan' : 'assets.station.addPicture')}
            </div>
          </div>
        </Upload>
      )}
    </Space>
  );
}
