// The build's production dependencies: the packages the project's lock does not mark dev, copied from the project's
// node_modules (which npm installed from the same lock) into the package, laid out as the lock lays them out, each
// once its version is checked against the lock, and the lock npm writes for that tree. This is the tree
// `npm install --omit=dev` makes from the lock, without unpacking the same packages from npm's cache again (half the
// build's time).
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The country package's second copy of each table (22 MB): the app reads one of each (adapters/files/countries.ts). */
const UNREAD_TABLES = ['geo-whois-asn-country-ipv4.csv', 'geo-whois-asn-country-ipv6-num.csv'];

// Whether a dependency's file ships: not its nested node_modules (each package there is an entry of the lock of its
// own), not source maps or TypeScript sources and declarations (half the dependencies' bytes, and nothing loads them at
// run time: a smaller package starts faster; the build's load check would catch a file that was needed after all),
// and not an unread table.
function shipped(packageFolder, source) {
  const inside = relative(packageFolder, source).split(sep);
  return inside[0] !== 'node_modules' && !/\.(?:map|[cm]?ts)$/.test(source) && !UNREAD_TABLES.includes(inside.at(-1));
}

/**
 * Copies the production packages of the lock at `root` from `root`'s node_modules into `stage`, and writes `stage`'s
 * lock (`manifest` is the package's own name, version, dependencies and engines). Throws, naming the package, when one
 * is missing or at another version than the lock's; a package a platform does not take (an optional one) may be
 * missing. Answers the paths copied.
 * @param {string} root
 * @param {string} stage
 * @param {{ name: string, version: string, dependencies: Record<string, string>, engines?: Record<string, string> }} manifest
 * @returns {string[]}
 */
export function stageProduction(root, stage, manifest) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const production = Object.entries(lock.packages).filter(([path, entry]) => path.startsWith('node_modules/') && !entry.dev);
  const copied = [];
  for (const [path, entry] of production) {
    const file = join(root, path, 'package.json');
    const installed = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
    if (installed === null && entry.optional) continue;
    if (installed?.version !== entry.version) {
      throw new Error(
        `${path} is ${installed?.version ?? 'not installed'} here and ${entry.version} in package-lock.json: run npm ci, then build`,
      );
    }
    cpSync(join(root, path), join(stage, path), { recursive: true, filter: (source) => shipped(join(root, path), source) });
    copied.push(path);
  }
  const { name, version, dependencies, engines } = manifest;
  const { lockfileVersion, requires } = lock;
  const packages = { '': { name, version, dependencies, engines }, ...Object.fromEntries(production) };
  writeFileSync(join(stage, 'package-lock.json'), `${JSON.stringify({ name, version, lockfileVersion, requires, packages }, null, 2)}\n`);
  return copied;
}
