import 'leaflet/dist/leaflet.css';
import type { MonitorStationSummary } from '@voltdepot/shared-contracts';
import { Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, ImageOverlay, MapContainer, Pane, Tooltip, useMap } from 'react-leaflet';
import { BaseMapLayers, mapDatum, OFFLINE_SEA, useBaseMap } from '../../../app/map/BaseMapLayers';
import { stationColor } from '../liveState';

function FitStations({
  points,
  selected,
  maxZoom,
}: {
  points: [number, number][];
  selected?: [number, number];
  maxZoom: number;
}) {
  const map = useMap();
  const key = points.map((p) => p.join(',')).join(';');
  useEffect(() => {
    if (points.length === 1) map.setView(points[0], Math.min(13, maxZoom));
    else if (points.length > 1) map.fitBounds(points, { padding: [32, 32], maxZoom });
    // Fit once per set of stations, not on every selection.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, key]);
  useEffect(() => {
    if (selected && !map.getBounds().contains(selected)) map.panTo(selected);
  }, [map, selected]);
  return null;
}

export type StationMapProps = {
  stations: MonitorStationSummary[];
  selectedId?: number;
  onSelect: (id: number) => void;
  height?: number;
  /** The selected station's site plan, laid over the map where the station is (WGS-84 bounds). */
  sitePlan?: { url: string; bounds: [[number, number], [number, number]] };
};

/**
 * Stations as markers coloured by their guns' state, on the base map (configured tiles, else the
 * offline boundaries, where the fit stops at city scale so the surroundings stay in view); a click
 * selects the station.
 */
export function StationMap({ stations, selectedId, onSelect, height = 360, sitePlan }: StationMapProps) {
  const { t } = useTranslation();
  const baseMap = useBaseMap();
  const offline = baseMap.kind === 'offline';
  const { toMap } = mapDatum(baseMap);
  const points = useMemo(
    () => new Map(stations.map((s) => [s.id, toMap([s.latitude, s.longitude])])),
    [stations, toMap],
  );
  const selected = selectedId === undefined ? undefined : points.get(selectedId);
  return (
    <div data-testid="station-map" data-base-map={baseMap.kind}>
      <MapContainer
        center={[...points.values()][0] ?? [31.82, 117.23]}
        zoom={offline ? 9 : 12}
        style={{ height, width: '100%', background: offline ? OFFLINE_SEA : undefined }}
        attributionControl={!offline}
      >
        <BaseMapLayers baseMap={baseMap} />
        {sitePlan && (
          <Pane name="vd-site-plan" style={{ zIndex: 350 }}>
            <ImageOverlay
              url={sitePlan.url}
              bounds={[toMap(sitePlan.bounds[0]), toMap(sitePlan.bounds[1])]}
              opacity={0.9}
            />
          </Pane>
        )}
        <FitStations points={[...points.values()]} selected={selected} maxZoom={offline ? 9 : 14} />
        {stations.map((station) => (
          <CircleMarker
            key={station.id}
            center={points.get(station.id)!}
            radius={station.id === selectedId ? 13 : 9}
            pathOptions={{
              color: station.id === selectedId ? '#001529' : '#ffffff',
              weight: 2,
              fillColor: stationColor(station.guns),
              fillOpacity: 0.9,
            }}
            eventHandlers={{ click: () => onSelect(station.id) }}
          >
            <Tooltip
              // On the offline map the chosen station is named, the others on hover (names would stack);
              // leaflet reads `permanent` once, so a change makes a new tooltip.
              key={String(offline && station.id === selectedId)}
              permanent={offline && station.id === selectedId}
              direction="top"
              offset={[0, -8]}
            >
              {station.name} ·{' '}
              {t('monitoring.station.piles', { online: station.pilesOnline, total: station.pilesTotal })}
            </Tooltip>
          </CircleMarker>
        ))}
      </MapContainer>
      {offline && <Typography.Text type="secondary">{t('monitoring.station.mapOffline')}</Typography.Text>}
    </div>
  );
}
