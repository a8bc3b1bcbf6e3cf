import L from 'leaflet';
import { useEffect, useMemo, useState } from 'react';
import { GeoJSON, Marker, Pane, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { usePlatformSettings } from '../platform/PlatformSettingsContext';
import { baseMapOf, type BaseMap } from './baseMap';
import { CITY_LOADERS, loadProvinces, provincesInView, type Boundaries } from './chinaBoundaries';
import { gcj02ToWgs84, wgs84ToGcj02, type LatLng } from './gcj02';

/** The base map the platform settings choose (see baseMapOf). */
export function useBaseMap(): BaseMap {
  const { entries } = usePlatformSettings();
  const envTileUrl = (import.meta.env as unknown as Record<string, string | undefined>)['VITE_MAP_TILE_URL'];
  return useMemo(() => baseMapOf(entries, envTileUrl), [entries, envTileUrl]);
}

type Datum = { toMap: (p: LatLng) => LatLng; fromMap: (p: LatLng) => LatLng };
const SAME: Datum = { toMap: (p) => p, fromMap: (p) => p };
const GCJ02: Datum = { toMap: wgs84ToGcj02, fromMap: gcj02ToWgs84 };

/** Where a WGS-84 point is drawn on the base map, and back (AMap's tiles are in GCJ-02). */
export function mapDatum(baseMap: BaseMap): Datum {
  return baseMap.kind === 'tiles' && baseMap.datum === 'gcj02' ? GCJ02 : SAME;
}

/** Land and sea colours of the offline map. */
export const OFFLINE_SEA = '#dbe7f1';
const PROVINCE_STYLE = { color: '#8c9bab', weight: 1.2, fillColor: '#f6f3ea', fillOpacity: 1 };
const CITY_STYLE = { color: '#b4bfcb', weight: 0.8, dashArray: '3 3', fill: false };
/** From this zoom the offline map adds city boundaries and names (instead of province names). */
const CITY_ZOOM = 7;

/** A place name centred on its point (a box wide enough for the longest names, text not clickable). */
function label(text: string, size: number): L.DivIcon {
  const element = document.createElement('div');
  element.textContent = text;
  element.style.cssText = `font-size:${size}px;line-height:20px;color:#4d5b69;text-align:center;white-space:nowrap;text-shadow:0 0 3px #fff,0 0 3px #fff`;
  return L.divIcon({ className: 'vd-map-label', html: element, iconSize: [160, 20], iconAnchor: [80, 10] });
}

function Labels({ boundaries, size }: { boundaries: Boundaries; size: number }) {
  return (
    <>
      {boundaries.features
        .filter((f) => f.properties.cp)
        .map((f) => (
          <Marker
            key={f.properties.name}
            position={[f.properties.cp![1], f.properties.cp![0]]}
            icon={label(f.properties.name, size)}
            interactive={false}
            keyboard={false}
          />
        ))}
    </>
  );
}

type View = { zoom: number; box: [number, number, number, number] };

function viewOf(map: L.Map): View {
  const b = map.getBounds();
  return { zoom: map.getZoom(), box: [b.getSouth(), b.getWest(), b.getNorth(), b.getEast()] };
}

/**
 * The offline base map: province boundaries, and from zoom 7 the cities of the provinces in view, each
 * loaded once when first needed. Drawn in a pane below the markers and never taking a click. Leaflet
 * simplifies the lines to the zoom as it draws them.
 */
function OfflineBoundaries() {
  const map = useMap();
  const [view, setView] = useState<View>(() => viewOf(map));
  const [provinces, setProvinces] = useState<Boundaries>();
  const [cities, setCities] = useState<Readonly<Record<string, Boundaries>>>({});
  useMapEvents({ moveend: () => setView(viewOf(map)), zoomend: () => setView(viewOf(map)) });

  useEffect(() => {
    let live = true;
    loadProvinces()
      .then((m) => live && setProvinces(m.default))
      // Without the boundaries the map still shows the markers on its plain background.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const wanted = useMemo(
    () => (provinces && view.zoom >= CITY_ZOOM ? provincesInView(provinces, view.box) : []),
    [provinces, view],
  );
  useEffect(() => {
    let live = true;
    for (const name of wanted) {
      const load = CITY_LOADERS[name];
      if (!load || cities[name]) continue;
      load()
        .then((m) => live && setCities((loaded) => ({ ...loaded, [name]: m.default })))
        .catch(() => undefined);
    }
    return () => {
      live = false;
    };
  }, [wanted, cities]);

  const shown = wanted.filter((name) => cities[name]);
  // Names in a pane of their own: leaflet stacks a pane's SVG above the marker icons sharing the pane.
  return (
    <>
      <Pane name="vd-offline-base" style={{ zIndex: 250 }}>
        {provinces && <GeoJSON data={provinces} style={PROVINCE_STYLE} interactive={false} />}
        {shown.map((name) => (
          <GeoJSON key={name} data={cities[name]} style={CITY_STYLE} interactive={false} />
        ))}
      </Pane>
      <Pane name="vd-offline-labels" style={{ zIndex: 260 }}>
        {provinces && view.zoom < CITY_ZOOM && <Labels boundaries={provinces} size={12} />}
        {shown.map((name) => (
          <Labels key={name} boundaries={cities[name]} size={view.zoom >= 9 ? 14 : 12} />
        ))}
      </Pane>
    </>
  );
}

/** What a console map draws under its own layers: the configured tiles, or the offline map. */
export function BaseMapLayers({ baseMap }: { baseMap: BaseMap }) {
  if (baseMap.kind === 'tiles')
    return (
      <TileLayer
        url={baseMap.url}
        attribution={baseMap.attribution}
        {...(baseMap.subdomains ? { subdomains: baseMap.subdomains } : {})}
      />
    );
  return <OfflineBoundaries />;
}
