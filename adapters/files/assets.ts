import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Asset, AssetShelf, AssetSource } from '../../shared/contract/assets';

/**
 * The package's root: the nearest folder above this file that holds a package.json. It is the project in
 * development and the deployed package's root when the app runs from dist/, so `public/` and `node_modules/` are
 * found the same way in both.
 */
export function packageRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** One file read from the package with its policy, gzipped and tagged once. */
export function readAsset(source: AssetSource, root: string = packageRoot()): Asset {
  const body = readFileSync(join(root, source.file));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { ...source, body, gzipped: gzipSync(body, { level: 9 }), etag };
}

/**
 * The files of a whitelist, each read from disk the first time it is asked for and kept for the process's life.
 * A file missing from the package is a start-up fault, so it throws rather than answering 404.
 */
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
