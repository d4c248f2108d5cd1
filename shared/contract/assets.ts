import { DASHBOARD_MODULES } from './dashboard-modules';

export interface AssetPolicy {
  contentType: string;
  cacheControl: string;
  /** The widget and the snippet load from other sites' pages. */
  crossOrigin: boolean;
  /** A part of the dashboard: the page and the modules name it at the dashboard's version (`?v=`). */
  versioned?: true;
  headers?: Record<string, string>;
}

/** Read once at start. */
export interface Asset extends AssetPolicy {
  body: Uint8Array;
  gzipped: Uint8Array;
  etag: string;
  /** The dashboard's version, for a versioned part. */
  version?: string;
}

/** A part asked at the dashboard's version never changes there: a new version names new addresses. */
export const KEPT_A_YEAR = 'public, max-age=31536000, immutable';

/** Undefined for a name not on the whitelist. */
export type AssetShelf = (name: string) => Asset | undefined;

export interface AssetSource extends AssetPolicy {
  file: string;
}

const javascript = 'text/javascript; charset=utf-8';
const anyOrigin = { crossOrigin: true, cacheControl: 'public, max-age=3600' } as const;
const dashboardPart = { crossOrigin: false, cacheControl: 'no-cache', versioned: true } as const;

/** The whitelist of GET /api/assets/{name}: nothing else on disk is ever served. */
export const ASSETS: Readonly<Record<string, AssetSource>> = {
  'headcount.js': { file: 'public/headcount.js', contentType: javascript, ...anyOrigin },
  'headcount-pulse.js': { file: 'public/headcount-pulse.js', contentType: javascript, ...anyOrigin },
  ...Object.fromEntries(DASHBOARD_MODULES.map((name) => [name, { file: `public/${name}`, contentType: javascript, ...dashboardPart }])),
  'admin.css': { file: 'public/admin.css', contentType: 'text/css; charset=utf-8', ...dashboardPart },
  'chart.umd.min.js': {
    file: 'node_modules/chart.js/dist/chart.umd.min.js',
    contentType: javascript,
    crossOrigin: false,
    cacheControl: 'public, max-age=86400',
    versioned: true,
  },
};

/** Only names Chromium knows: an unknown one is a console error on every load. */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'camera',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'geolocation',
  'gyroscope',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/** Never cached, since the operator key is typed here. A browser ignores HSTS over plain HTTP, as locally. */
export const DASHBOARD: AssetSource = {
  file: 'public/admin.html',
  contentType: 'text/html; charset=utf-8',
  cacheControl: 'no-store',
  crossOrigin: false,
  headers: {
    'content-security-policy':
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'strict-transport-security': 'max-age=63072000',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': PERMISSIONS_POLICY,
  },
};
