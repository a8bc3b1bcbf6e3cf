import 'leaflet/dist/leaflet.css';
import { Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, MapContainer, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { usePlatformSettings } from '../../../app/platform/PlatformSettingsContext';

/** Fuzhou, where the demo depot is: the map's centre until a station has a position. */
export const DEFAULT_CENTER: [number, number] = [26.074508, 119.296494];

/**
 * The map tile source: the public platform setting `mapTileUrl`, else VITE_MAP_TILE_URL, else none
 * (a plain background: the picker still works offline, coordinates come from where one clicks).
 */
export function useMapTileUrl(): string {
  const { entries } = usePlatformSettings();
  const env = import.meta.env as unknown as Record<string, string | undefined>;
  return (entries['mapTileUrl'] || env['VITE_MAP_TILE_URL'] || '').trim();
}

/** Rounds to the six decimals the api stores (about 0.1 m). */
export function roundCoordinate(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function ClickToPick({ onPick }: { onPick: (latitude: number, longitude: number) => void }) {
  useMapEvents({
    click(event) {
      const { lat, lng } = event.latlng.wrap();
      onPick(roundCoordinate(lat), roundCoordinate(lng));
    },
  });
  return null;
}

/** Leaflet measures its container once; a drawer or modal opening later resizes it. */
function KeepSize() {
  const map = useMap();
  useEffect(() => {
    const container = map.getContainer();
    const observer = new ResizeObserver(() => map.invalidateSize());
    observer.observe(container);
    return () => observer.disconnect();
  }, [map]);
  return null;
}

function FollowPoint({ point }: { point: [number, number] | undefined }) {
  const map = useMap();
  useEffect(() => {
    if (point && !map.getBounds().contains(point)) map.panTo(point);
  }, [map, point]);
  return null;
}

export type CoordinatePickerProps = {
  latitude: number | undefined;
  longitude: number | undefined;
  onPick: (latitude: number, longitude: number) => void;
  height?: number;
};

/** A react-leaflet map where a click sets the station's position (WGS-84 degrees). */
export function CoordinatePicker({ latitude, longitude, onPick, height = 300 }: CoordinatePickerProps) {
  const { t } = useTranslation();
  const tileUrl = useMapTileUrl();
  const valid =
    typeof latitude === 'number' &&
    typeof longitude === 'number' &&
    Math.abs(latitude) <= 90 &&
    Math.abs(longitude) <= 180;
  const point: [number, number] | undefined = valid ? [latitude, longitude] : undefined;
  return (
    <div data-testid="coordinate-picker">
      <MapContainer
        center={point ?? DEFAULT_CENTER}
        zoom={tileUrl ? 14 : 12}
        style={{
          height,
          width: '100%',
          cursor: 'crosshair',
          // Without tiles: a plain background with a faint grid, so clicks still have a place to land.
          background: tileUrl
            ? undefined
            : 'repeating-linear-gradient(0deg, #e6edf3 0 1px, transparent 1px 40px), repeating-linear-gradient(90deg, #e6edf3 0 1px, #f6f9fb 1px 40px)',
        }}
        attributionControl={Boolean(tileUrl)}
      >
        {tileUrl && <TileLayer url={tileUrl} attribution="&copy; map data" />}
        <KeepSize />
        <ClickToPick onPick={onPick} />
        <FollowPoint point={point} />
        {point && (
          <CircleMarker center={point} radius={8} pathOptions={{ color: '#1677ff', fillOpacity: 0.6 }} />
        )}
      </MapContainer>
      <Typography.Text type="secondary">
        {tileUrl ? t('assets.map.hint') : t('assets.map.offlineHint')}
      </Typography.Text>
    </div>
  );
}
