import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ASSETS, DASHBOARD } from '../../shared/contract/assets';
import { AZURE_SHAPE } from './azure-shape';
import { projectText, ROOT } from './bicep';

const stage = join(ROOT, 'dist', 'package');
const zipFile = join(ROOT, 'dist', 'headcount.zip');

const manifestSchema = z.object({
  main: z.string(),
  dependencies: z.record(z.string(), z.string()),
  devDependencies: z.record(z.string(), z.string()).optional(),
  scripts: z.record(z.string(), z.string()).optional(),
});
const lockSchema = z.object({
  packages: z.record(z.string(), z.object({ dev: z.boolean().optional(), optional: z.boolean().optional() }).loose()),
});

const rootManifest = manifestSchema.parse(JSON.parse(projectText('package.json')));

// Every file under a folder, as paths relative to it with forward slashes.
function filesUnder(folder: string, base = folder): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return lstatSync(path).isDirectory() ? filesUnder(path, base) : [relative(base, path).split(sep).join('/')];
  });
}

// The names a zip's central directory lists.
function zipNames(zip: Buffer): string[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  const names: string[] = [];
  for (let at = zip.readUInt32LE(end + 16), index = 0; index < count; index += 1) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(at + 28);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return names;
}

let printed = '';

describe('npm run build makes the deployable package', () => {
  beforeAll(() => {
    // The suite's type-check (scripts/check.mjs) already checks what tsc compiles here (the last test holds it to that).
    printed = execFileSync('npm', ['run', '--silent', 'build', '--', '--no-check'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  }, 300_000);

  it('reports where the package is and its size', () => {
    expect(printed).toMatch(/package: dist\/package \(\d+ files, [\d.]+ MB\), dist\/headcount\.zip [\d.]+ MB/);
  });

  it('holds host.json and a package.json with only the production dependencies and the same main', () => {
    expect(readFileSync(join(stage, 'host.json'), 'utf8')).toBe(projectText('host.json'));
    const manifest = manifestSchema.parse(JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8')));
    expect(manifest.dependencies).toEqual(rootManifest.dependencies);
    expect([manifest.devDependencies, manifest.scripts]).toEqual([undefined, undefined]);
    expect(manifest.main).toBe(rootManifest.main);
  });

  it("lays the compiled functions where package.json's main finds them, one per function source", () => {
    const pattern = /^(.*)\/\*\.js$/.exec(rootManifest.main);
    expect(pattern?.[1]).toBe('dist/functions');
    const compiled = readdirSync(join(stage, pattern![1]!)).filter((file) => file.endsWith('.js'));
    const sources = readdirSync(join(ROOT, 'functions')).filter((file) => file.endsWith('.ts'));
    expect(compiled.sort()).toEqual(sources.map((file) => file.replace(/\.ts$/, '.js')).sort());
  });

  it('installs the production dependencies and none of the development ones', () => {
    const lock = lockSchema.parse(JSON.parse(projectText('package-lock.json')));
    const devOnly = Object.entries(lock.packages)
      .filter(([path, entry]) => path.startsWith('node_modules/') && entry.dev === true)
      .map(([path]) => path);
    expect(devOnly.length).toBeGreaterThan(10);
    expect(devOnly.filter((path) => existsSync(join(stage, path)))).toEqual([]);
    expect(Object.keys(rootManifest.dependencies).filter((name) => !existsSync(join(stage, 'node_modules', name, 'package.json')))).toEqual(
      [],
    );
    // A development dependency a production one also needs (ajv, for the MCP SDK) is the lock's production entry.
    const devOnlyNames = Object.keys(rootManifest.devDependencies ?? {}).filter(
      (name) => lock.packages[`node_modules/${name}`]?.dev === true,
    );
    expect(devOnlyNames.filter((name) => existsSync(join(stage, 'node_modules', name)))).toEqual([]);
    // The package's lock and its node_modules are the project lock's production entries, each at the lock's version.
    const production = Object.entries(lock.packages).filter(([path, entry]) => path.startsWith('node_modules/') && entry.dev !== true);
    const staged = lockSchema.parse(JSON.parse(readFileSync(join(stage, 'package-lock.json'), 'utf8')));
    expect(Object.entries(staged.packages).filter(([path]) => path !== '')).toEqual(production);
    const versionOf = (path: string) =>
      (JSON.parse(readFileSync(join(stage, path, 'package.json'), 'utf8')) as { version: string }).version;
    // An optional build for another platform (DuckDB's bindings for macOS or Windows) is in the lock, not installed here.
    const installed = production.filter(([path, entry]) => entry.optional !== true || existsSync(join(stage, path)));
    expect(installed.filter(([path, entry]) => versionOf(path) !== entry.version)).toEqual([]);
  });

  it('leaves out sources, tests, infra, maps and the local host', () => {
    const files = filesUnder(stage);
    expect(
      files.filter(
        (file) =>
          /\.(?:ts|map)$/.test(file) ||
          /^(?:test|infra|bench|scripts|functions|shared|host|local)\//.test(file) ||
          file.startsWith('dist/local/'),
      ),
    ).toEqual([]);
    // Besides the code and its dependencies: the host's files and the pages the app serves from public/.
    const served = existsSync(join(ROOT, 'public')) ? filesUnder(join(ROOT, 'public')).map((file) => `public/${file}`) : [];
    expect(files.filter((file) => !file.startsWith('node_modules/') && !file.startsWith('dist/')).sort()).toEqual(
      ['data/hosting-networks.bin', 'host.json', 'package-lock.json', 'package.json', ...served].sort(),
    );
  });

  it('starts in the Functions host shape: Azure settings, endpoints and identity, only production dependencies', () => {
    const functions = readdirSync(join(stage, 'dist', 'functions'));
    // Node would also look in the project's node_modules above the package: a module found there is an error here.
    const guard = `const M = require('node:module'); const resolve = M._resolveFilename;
      M._resolveFilename = function (request, ...rest) { const found = resolve.call(this, request, ...rest);
        if (!M.isBuiltin(found) && !found.startsWith(${JSON.stringify(stage + sep)})) throw new Error('Cannot find module ' + request + ' in the package');
        return found; };`;
    const load =
      guard + functions.map((file) => `require('./dist/functions/${file}');`).join('') + "console.log('loaded', " + functions.length + ')';
    const { FUNCTIONS_WORKER_RUNTIME: _, ...outside } = process.env;
    const started = spawnSync(process.execPath, ['-e', load], {
      cwd: stage,
      encoding: 'utf8',
      env: { ...outside, ...AZURE_SHAPE, FUNCTIONS_WORKER_RUNTIME: 'node', NODE_PATH: '' },
    });
    expect(started.stderr).not.toMatch(/cannot start|Cannot find module/);
    expect(started.stdout).toContain(`loaded ${functions.length}`);
    expect(started.status).toBe(0);
  });

  it('holds every file the asset routes serve (public/ and chart.js), at the path the app reads it from', () => {
    const served = [...Object.values(ASSETS), DASHBOARD].map((source) => source.file);
    expect(served).toEqual(expect.arrayContaining(['public/admin.html', 'node_modules/chart.js/dist/chart.umd.min.js']));
    expect(served.filter((file) => !existsSync(join(stage, file)))).toEqual([]);
  });

  it("holds the hosting networks' compact table, not the network data it was made from", () => {
    expect(lstatSync(join(stage, 'data', 'hosting-networks.bin')).size).toBeLessThan(1024 * 1024);
    // The country data ships (its lookup is built from it at run time); the ASN data the table was made from does not.
    expect(existsSync(join(stage, 'node_modules', '@ip-location-db', 'asn'))).toBe(false);
    expect(existsSync(join(stage, 'node_modules', '@ip-location-db', 'geo-whois-asn-country'))).toBe(true);
  });

  it('zips exactly the staged files', () => {
    expect(zipNames(readFileSync(zipFile)).sort()).toEqual(filesUnder(stage).sort());
  });

  it("is compiled unchecked here because the suite's type-check reads the build's sources with the build's settings", () => {
    const config = z.object({
      extends: z.string().optional(),
      compilerOptions: z.record(z.string(), z.unknown()),
      include: z.array(z.string()),
    });
    const build = config.parse(JSON.parse(projectText('tsconfig.json')));
    const suite = config.parse(JSON.parse(projectText('tsconfig.test.json')));
    expect(suite.extends).toBe('./tsconfig.json');
    expect(suite.compilerOptions).toEqual({ noEmit: true });
    expect(build.include.filter((folder) => !suite.include.includes(folder))).toEqual([]);
  });
});
