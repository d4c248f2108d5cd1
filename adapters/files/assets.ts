import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Asset, AssetShelf, AssetSource } from '../../shared/contract/assets';

/** The nearest folder above with a package.json, so `public/` is found the same way in development and from dist/. */
export function packageRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** Gzipped and tagged once. */
export function readAsset(source: AssetSource, root: string = packageRoot()): Asset {
  const body = readFileSync(join(root, source.file));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { ...source, body, gzipped: gzipSync(body, { level: 9 }), etag };
}

/** Read on first ask and kept; a missing file is a start-up fault, so it throws rather than answering 404. */
export function assetShelf(sources: Readonly<Record<string, AssetSource>>, root?: string): AssetShelf {
  const read = new Map<string, Asset>();
  return (name) => {
    if (!Object.hasOwn(sources, name)) return undefined;
    let asset = read.get(name);
    if (asset === undefined) {
      asset = readAsset(sources[name]!, root);
      read.set(name, asset);
    }
    return asset;
  };
}
