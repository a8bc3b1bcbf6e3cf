import { useQuery } from '@tanstack/react-query';
import { usePermission } from '@voltdepot/console-ui';
import { useEffect, useState } from 'react';
import { monitorApi } from '../api/monitorApi';
import { monitorQueryKeys } from '../queryKeys';

/** The station record's code the site plan is read under (basic data: the picture route checks it). */
export const SITE_PLAN_PERMISSION = 'basic:station:query';

export type SitePlan = { url: string; width: number; height: number; areaSqm: number | null };

/**
 * A station's site plan, if it has one and the user may read station records: its image (an object URL,
 * revoked when no longer shown), its size in pixels and the station's area for the map's overlay.
 */
export function useSitePlan(stationId: number | undefined): SitePlan | undefined {
  const allowed = usePermission(SITE_PLAN_PERMISSION);
  const query = useQuery({
    queryKey: monitorQueryKeys.sitePlan(stationId ?? 0),
    enabled: allowed && stationId !== undefined,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const record = await monitorApi.stationRecord(stationId!, signal);
      if (!record || record.sitePlanPictureId == null) return null;
      const image = await monitorApi.picture(stationId!, record.sitePlanPictureId, signal);
      return image ? { image, areaSqm: record.areaSqm ?? null } : null;
    },
  });
  const [plan, setPlan] = useState<SitePlan>();
  useEffect(() => {
    setPlan(undefined);
    const data = query.data;
    if (!data) return;
    const url = URL.createObjectURL(data.image);
    const img = new Image();
    img.onload = () =>
      setPlan({ url, width: img.naturalWidth, height: img.naturalHeight, areaSqm: data.areaSqm });
    img.src = url;
    return () => {
      img.onload = null;
      URL.revokeObjectURL(url);
    };
  }, [query.data]);
  return plan;
}
