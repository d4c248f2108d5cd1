import { KEPT_A_YEAR, type Asset } from '../../shared/contract/assets';

export interface AssetAnswer {
  status: 200 | 304 | 404;
  headers: Record<string, string>;
  body?: Uint8Array;
}

const acceptsGzip = (acceptEncoding: string | null) =>
  /(^|,)\s*gzip\s*(;\s*q=(?!0(\.0*)?\s*($|,))[\d.]+)?\s*($|,)/i.test(acceptEncoding ?? '');

/** `version` is the one asked (`?v=`): a part asked at its own is kept a year, at any other it is asked again. */
export function serveAsset(asset: Asset | undefined, header: (name: string) => string | null, version: string | null = null): AssetAnswer {
  if (asset === undefined) return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } };
  const headers: Record<string, string> = {
    'content-type': asset.contentType,
    'cache-control': asset.version !== undefined && version === asset.version ? KEPT_A_YEAR : asset.cacheControl,
    etag: asset.etag,
    vary: 'Accept-Encoding',
    'x-content-type-options': 'nosniff',
    ...asset.headers,
  };
  if (asset.crossOrigin) {
    headers['access-control-allow-origin'] = '*';
    headers['cross-origin-resource-policy'] = 'cross-origin';
  }
  const held = header('if-none-match');
  if (held !== null && held.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag)) return { status: 304, headers };
  if (!acceptsGzip(header('accept-encoding'))) return { status: 200, headers, body: asset.body };
  return { status: 200, headers: { ...headers, 'content-encoding': 'gzip' }, body: asset.gzipped };
}
