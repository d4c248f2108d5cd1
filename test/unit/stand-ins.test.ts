import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkStandIn, installOnce, WRITTEN_FOR } from '../../local/stand-ins';

// The stand-ins the local stack patches at run time, each checked at start against the version it was written for.

const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
  overrides: Record<string, string>;
};
const fromServer = createRequire(require.resolve('@vercel/cosmosdb-server')).resolve;
const fromAzurite = createRequire(require.resolve('azurite/package.json')).resolve;

describe('the stand-ins are the versions their patches were written for', () => {
  it('package.json pins each exactly, as stand-ins.json lists them', () => {
    expect(manifest.devDependencies['azurite']).toBe(WRITTEN_FOR['azurite']);
    expect(manifest.devDependencies['@vercel/cosmosdb-server']).toBe(WRITTEN_FOR['@vercel/cosmosdb-server']);
    expect(manifest.overrides['lokijs']).toBe(WRITTEN_FOR['lokijs']);
    // The server pins its engine itself.
    const server = JSON.parse(readFileSync(fromServer('@vercel/cosmosdb-server/package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(server.dependencies['@zeit/cosmosdb-query']).toBe(WRITTEN_FOR['@zeit/cosmosdb-query']);
  });

  it('the installed ones pass the check', () => {
    expect(() => checkStandIn('@vercel/cosmosdb-server', 'cosmos/partitions.ts', require.resolve)).not.toThrow();
    expect(() => checkStandIn('@zeit/cosmosdb-query', 'cosmos/linear-queries.ts', fromServer)).not.toThrow();
    expect(() => checkStandIn('azurite', 'azurite-process.cjs', fromAzurite)).not.toThrow();
    expect(() => checkStandIn('lokijs', 'azurite-process.cjs', fromAzurite)).not.toThrow();
  });

  it('another version stops the start with a message naming the patch, the package and both versions', () => {
    const other = { ...WRITTEN_FOR, lokijs: '1.4.0' };
    expect(() => checkStandIn('lokijs', 'azurite-process.cjs', fromAzurite, other)).toThrow(
      `local/azurite-process.cjs patches lokijs 1.4.0, and lokijs ${WRITTEN_FOR['lokijs']} is installed`,
    );
  });
});

describe('every patch of the local stack is installed through one guard', () => {
  it('installs a patch once a process, and not at all when a package it patches is another version', () => {
    let installs = 0;
    const patch = `test-patch-${randomUUID()}`;
    installOnce(patch, [['@vercel/cosmosdb-server', require.resolve]], () => (installs += 1));
    installOnce(patch, [['@vercel/cosmosdb-server', require.resolve]], () => (installs += 1));
    expect(installs).toBe(1);
    // A resolve that finds another package's manifest reads as another version of lokijs.
    const elsewhere = () => require.resolve('zod/package.json');
    expect(() => installOnce(`${patch}-other`, [['lokijs', elsewhere]], () => (installs += 1))).toThrow(/patches lokijs/);
    expect(installs).toBe(1);
  });
});

describe('local/README.md lists every patch with the version it is pinned to', () => {
  const rows = readFileSync(join(root, 'local', 'README.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split(' | '));
  const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((found) => found[1]!);

  it('names each package at the version stand-ins.json lists', () => {
    const named = rows.flatMap(([, , patched]) =>
      [...patched!.matchAll(/`([^`]+)` (\d[\w.-]*\w)/g)].map((found): [string, string] => [found[1]!, found[2]!]),
    );
    expect(new Set(named.map(([name]) => name))).toEqual(new Set(Object.keys(WRITTEN_FOR)));
    expect(named.filter(([name, version]) => WRITTEN_FOR[name] !== version)).toEqual([]);
  });

  it('names every file of local/cosmos/', () => {
    const listed = rows.flatMap(([patch]) => codes(patch!));
    const files = readdirSync(join(root, 'local', 'cosmos')).map((file) => `cosmos/${file}`);
    expect(files.filter((file) => !listed.includes(file))).toEqual([]);
  });
});
