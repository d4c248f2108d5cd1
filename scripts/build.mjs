// npm run build: compiles the TypeScript with tsc into dist/, then stages the deployable package in dist/package/
// (host.json, a package.json and lock with only the production dependencies, the compiled JavaScript, and those
// dependencies as the lock lays them out) and zips it to dist/headcount.zip. It checks its own work: every function
// file must load from the package with nothing but the production dependencies, or the build fails. `azd deploy`
// ships dist/package. `--no-check` skips tsc's type-check (it still compiles): for the test command, whose own
// type-check (scripts/check.mjs) covers the same sources; a deploy build always checks.
import { execFileSync } from 'node:child_process';
import { copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { stageProduction } from './build-production.mjs';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
const stage = join(dist, 'package');
const zipFile = join(dist, 'headcount.zip');

const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: 'inherit' });

// Every file under a folder, depth first in name order (so the zip is the same from the same files); no symlinks.
function filesUnder(folder) {
  const found = [];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) found.push(...filesUnder(path));
    else if (stat.isFile()) found.push(path);
  }
  return found;
}

// A zip of a folder, deflated, with a fixed date, written with Node alone (no zip tool on every machine).
function zipFolder(folder, target) {
  const locals = [];
  const central = [];
  let offset = 0;
  for (const file of filesUnder(folder)) {
    const name = Buffer.from(relative(folder, file).split(sep).join('/'));
    const data = readFileSync(file);
    // zlib's default level: level 9 took four times as long (3.5 s against 0.9 s) for a zip 1.4% smaller.
    const packed = deflateRawSync(data);
    const sum = crc32(data);
    const header = (signature, size) => {
      const buffer = Buffer.alloc(size);
      buffer.writeUInt32LE(signature, 0);
      return buffer;
    };
    const local = header(0x04034b50, 30);
    local.writeUInt16LE(20, 4); // version needed: deflate
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(8, 8); // method: deflate
    local.writeUInt16LE(0x21, 12); // date 1980-01-01
    local.writeUInt32LE(sum, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = header(0x02014b50, 46);
    entry.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the mode below is read
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt16LE(0x21, 14);
    entry.writeUInt32LE(sum, 16);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    central.push(entry, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  writeFileSync(target, Buffer.concat([...locals, directory, end]));
}

// Node code that makes any module resolved outside `folder` (other than Node's own) an error.
function inPackageOnly(folder) {
  return `{
    const Module = require('node:module');
    const resolve = Module._resolveFilename;
    Module._resolveFilename = function (request, ...rest) {
      const found = resolve.call(this, request, ...rest);
      if (!Module.isBuiltin(found) && !found.startsWith(${JSON.stringify(folder + sep)})) {
        throw new Error(request + ' is not in the package (found at ' + found + '): is it a production dependency?');
      }
      return found;
    };
  }`;
}

// Node code that reads every file the asset routes serve as the app reads it (public/ and chart.js under node_modules),
// from the root the app finds for itself, so a page missing from the package fails the build, not the first visit.
function servedFilesRead() {
  return `{
    const { ASSETS, DASHBOARD } = require('./dist/shared/contract/assets.js');
    const { packageRoot, readAsset } = require('./dist/adapters/files/assets.js');
    const found = packageRoot(require('node:path').resolve('dist/adapters/files'));
    if (found !== process.cwd()) throw new Error('the app would read its pages from ' + found + ', not the package');
    for (const source of [...Object.values(ASSETS), DASHBOARD]) readAsset(source, found);
  }`;
}

const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

rmSync(dist, { recursive: true, force: true });
// The hosting networks' compact table, made from the installed network data (a no-op when it is already current).
run(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build-networks.ts'), '--if-stale'], root);
const noCheck = process.argv.includes('--no-check') ? ['--noCheck'] : [];
run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', root, ...noCheck], root);

// The compiled JavaScript, without source maps (nothing reads them in Azure). tsc compiles only what Azure runs
// (tsconfig.json): the local stack (local/) needs dev-only packages, so it is never built.
for (const file of filesUnder(dist)) {
  if (file.startsWith(stage + sep) || !file.endsWith('.js')) continue;
  const target = join(stage, relative(root, file));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
}
copyFileSync(join(root, 'host.json'), join(stage, 'host.json'));
// The pages (the dashboard, the widget, the snippet) are served from public/ at the package's root.
for (const file of filesUnder(join(root, 'public'))) {
  mkdirSync(dirname(join(stage, relative(root, file))), { recursive: true });
  copyFileSync(file, join(stage, relative(root, file)));
}

// The hosting networks' table goes where the app reads it (adapters/files/networks.ts): data/ at the package's root.
// The network data package itself is a development dependency: its 65 MB of CSV never ship.
mkdirSync(join(stage, 'data'), { recursive: true });
copyFileSync(join(root, 'data', 'hosting-networks.bin'), join(stage, 'data', 'hosting-networks.bin'));

// A package.json with only what running needs: no scripts (a remote build would run them), no devDependencies.
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const { name, version, description, private: isPrivate, type, main, engines, dependencies } = manifest;
writeFileSync(
  join(stage, 'package.json'),
  `${JSON.stringify({ name, version, description, private: isPrivate, type, main, engines, dependencies }, null, 2)}\n`,
);
// The production dependencies, as the lock lays them out, and the lock npm writes for them (build-production.mjs).
stageProduction(root, stage, { name, version, dependencies, engines });

// The package proves itself: each function file loads with only the production dependencies installed, and every
// served file is where the app reads it. Node would also look in the project's own node_modules above the package, so
// a module found outside the package fails.
const functionFiles = readdirSync(join(stage, 'dist', 'functions')).filter((file) => file.endsWith('.js'));
if (functionFiles.length === 0) throw new Error('no compiled function in dist/package/dist/functions');
const { FUNCTIONS_WORKER_RUNTIME: _outsideTheHost, ...env } = process.env;
const load = [inPackageOnly(stage), ...functionFiles.map((file) => `require('./dist/functions/${file}');`), servedFilesRead()].join('\n');
execFileSync(process.execPath, ['-e', load], { cwd: stage, env, stdio: 'inherit' });

zipFolder(stage, zipFile);
const files = filesUnder(stage);
const unpacked = files.reduce((sum, file) => sum + lstatSync(file).size, 0);
console.log(
  `package: ${relative(root, stage)} (${files.length} files, ${megabytes(unpacked)}), ${relative(root, zipFile)} ${megabytes(lstatSync(zipFile).size)}; ${functionFiles.length} function files, ${Object.keys(dependencies).length} production dependencies`,
);
