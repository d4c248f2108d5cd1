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

type Sources = Readonly<Record<string, AssetSource>>;

/** The dashboard's parts and their version: a hash of them all, so a change to any names every part anew. */
export interface Versions {
  names: ReadonlySet<string>;
  version: string;
}

/** Read on first ask and kept, so the shelves that name the parts (the page's and the parts') read them once. */
export function partsVersions(sources: Sources, root: string = packageRoot()): () => Versions {
  let versions: Versions | undefined;
  return () => {
    if (versions !== undefined) return versions;
    const names = Object.keys(sources)
      .filter((name) => sources[name]!.versioned)
      .sort();
    const hash = createHash('sha256');
    for (const name of names) hash.update(`${name}\n`).update(readFileSync(join(root, sources[name]!.file)));
    versions = { names: new Set(names), version: hash.digest('base64url').slice(0, 12) };
    return versions;
  };
}

/** A module's imports (`from './admin-dom.js';`) and the page's links (`src="/api/assets/admin.js"`) of the parts, at their version. */
function atVersion(text: string, { names, version }: Versions): string {
  const at = (name: string, whole: string, address: string) =>
    names.has(name) ? whole.replace(address, `${address}?v=${version}`) : whole;
  return text
    .replace(/ from '(\.\/([^'?]+))';$/gm, (whole, address: string, name: string) => at(name, whole, address))
    .replace(/(?:src|href)="(\/api\/assets\/([^"?]+))"/g, (whole, address: string, name: string) => at(name, whole, address));
}

const isText = (source: AssetSource) => /^text\/(javascript|html|css)/.test(source.contentType);

/** Gzipped and tagged once; with `versions`, a page or a module names the dashboard's parts at their version. */
export function readAsset(source: AssetSource, root: string = packageRoot(), versions?: Versions): Asset {
  const read = readFileSync(join(root, source.file));
  const body = versions && isText(source) ? Buffer.from(atVersion(read.toString('utf8'), versions)) : read;
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  const version = versions && source.versioned ? { version: versions.version } : {};
  return { ...source, body, gzipped: gzipSync(body, { level: 9 }), etag, ...version };
}

/**
 * Read on first ask and kept; a missing file is a start-up fault, so it throws rather than answering 404. The
 * dashboard's parts are named at their version (`versions`).
 */
export function assetShelf(sources: Sources, root: string = packageRoot(), versions = partsVersions(sources, root)): AssetShelf {
  const read = new Map<string, Asset>();
  return (name) => {
    if (!Object.hasOwn(sources, name)) return undefined;
    let asset = read.get(name);
    if (asset === undefined) {
      asset = readAsset(sources[name]!, root, versions());
      read.set(name, asset);
    }
    return asset;
  };
}
