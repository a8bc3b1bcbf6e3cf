import 'leaflet/dist/leaflet.css';
import { Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, MapContainer, useMap, useMapEvents } from 'react-leaflet';
import { BaseMapLayers, mapDatum, OFFLINE_SEA, useBaseMap } from '../../../app/map/BaseMapLayers';
import type { LatLng } from '../../../app/map/gcj02';

/** Hefei, where the demo depots are: the map's centre until a station has a position. */
export const DEFAULT_CENTER: [number, number] = [31.82, 117.23];

/** Rounds to the six decimals the api stores (about 0.1 m). */
export function roundCoordinate(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function ClickToPick({
  onPick,
  fromMap,
}: {
  onPick: (latitude: number, longitude: number) => void;
  fromMap: (p: LatLng) => LatLng;
}) {
  useMapEvents({
    click(event) {
      const { lat, lng } = event.latlng.wrap();
      const [latitude, longitude] = fromMap([lat, lng]);
      onPick(roundCoordinate(latitude), roundCoordinate(longitude));
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

/**
 * A react-leaflet map where a click sets the station's position (WGS-84 degrees), on the base map
 * (configured tiles, else the offline boundaries: still enough to click near the right place).
 */
export function CoordinatePicker({ latitude, longitude, onPick, height = 300 }: CoordinatePickerProps) {
  const { t } = useTranslation();
  const baseMap = useBaseMap();
  const offline = baseMap.kind === 'offline';
  const { toMap, fromMap } = mapDatum(baseMap);
  const valid =
    typeof latitude === 'number' &&
    typeof longitude === 'number' &&
    Math.abs(latitude) <= 90 &&
    Math.abs(longitude) <= 180;
  const point: [number, number] | undefined = valid ? toMap([latitude, longitude]) : undefined;
  return (
    <div data-testid="coordinate-picker">
      <MapContainer
        center={point ?? DEFAULT_CENTER}
        zoom={offline ? 10 : 14}
        style={{ height, width: '100%', cursor: 'crosshair', background: offline ? OFFLINE_SEA : undefined }}
        attributionControl={!offline}
      >
        <BaseMapLayers baseMap={baseMap} />
        <KeepSize />
        <ClickToPick onPick={onPick} fromMap={fromMap} />
        <FollowPoint point={point} />
        {point && (
          <CircleMarker center={point} radius={8} pathOptions={{ color: '#1677ff', fillOpacity: 0.6 }} />
        )}
      </MapContainer>
      <Typography.Text type="secondary">
        {offline ? t('assets.map.offlineHint') : t('assets.map.hint')}
      </Typography.Text>
    </div>
  );
}
