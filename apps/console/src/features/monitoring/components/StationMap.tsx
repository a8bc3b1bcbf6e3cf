import 'leaflet/dist/leaflet.css';
import type { MonitorStationSummary } from '@voltdepot/shared-contracts';
import { Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, MapContainer, TileLayer, Tooltip, useMap } from 'react-leaflet';
import { usePlatformSettings } from '../../../app/platform/PlatformSettingsContext';
import { stationColor } from '../liveState';

/**
 * The map tile source: the public platform setting `mapTileUrl`, else VITE_MAP_TILE_URL, else none: a
 * plain background with the stations' markers, which works without any network.
 */
export function useMonitorTileUrl(): string {
  const { entries } = usePlatformSettings();
  const env = import.meta.env as unknown as Record<string, string | undefined>;
  return (entries['mapTileUrl'] || env['VITE_MAP_TILE_URL'] || '').trim();
}

const PLAIN_BACKGROUND =
  'repeating-linear-gradient(0deg, #e6edf3 0 1px, transparent 1px 48px), repeating-linear-gradient(90deg, #e6edf3 0 1px, #f6f9fb 1px 48px)';

function FitStations({ points, selected }: { points: [number, number][]; selected?: [number, number] }) {
  const map = useMap();
  const key = points.map((p) => p.join(',')).join(';');
  useEffect(() => {
    if (points.length === 1) map.setView(points[0], 13);
    else if (points.length > 1) map.fitBounds(points, { padding: [32, 32], maxZoom: 14 });
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
};

/** Stations as markers coloured by their guns' state; a click selects the station. */
export function StationMap({ stations, selectedId, onSelect, height = 360 }: StationMapProps) {
  const { t } = useTranslation();
  const tileUrl = useMonitorTileUrl();
  const points = useMemo(
    () => stations.map((s) => [s.latitude, s.longitude] as [number, number]),
    [stations],
  );
  const selected = stations.find((s) => s.id === selectedId);
  return (
    <div data-testid="station-map">
      <MapContainer
        center={points[0] ?? [31.82, 117.23]}
        zoom={12}
        style={{ height, width: '100%', background: tileUrl ? undefined : PLAIN_BACKGROUND }}
        attributionControl={Boolean(tileUrl)}
      >
        {tileUrl && <TileLayer url={tileUrl} attribution="&copy; map data" />}
        <FitStations
          points={points}
          selected={selected ? [selected.latitude, selected.longitude] : undefined}
        />
        {stations.map((station) => (
          <CircleMarker
            key={station.id}
            center={[station.latitude, station.longitude]}
            radius={station.id === selectedId ? 13 : 9}
            pathOptions={{
              color: station.id === selectedId ? '#001529' : '#ffffff',
              weight: 2,
              fillColor: stationColor(station.guns),
              fillOpacity: 0.9,
            }}
            eventHandlers={{ click: () => onSelect(station.id) }}
          >
            <Tooltip permanent={!tileUrl} direction="top" offset={[0, -8]}>
              {station.name} ·{' '}
              {t('monitoring.station.piles', { online: station.pilesOnline, total: station.pilesTotal })}
            </Tooltip>
          </CircleMarker>
        ))}
      </MapContainer>
      {!tileUrl && <Typography.Text type="secondary">{t('monitoring.station.mapOffline')}</Typography.Text>}
    </div>
  );
}
