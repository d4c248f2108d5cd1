import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stageProduction } from '../../scripts/build-production.mjs';

// The build's production packages (scripts/build-production.mjs) on a project of the test's own: what the lock says
// ships, at the lock's version, laid out as the lock lays it out, and nothing else.

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function write(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A project whose lock names these packages, with these installed (a path's version, or null for not installed). */
function project(packages: Record<string, { version: string; dev?: boolean; optional?: boolean; installed?: string | null }>) {
  const root = mkdtempSync(join(tmpdir(), 'headcount-build-'));
  const stage = join(root, 'stage');
  folders.push(root);
  const lock = {
    name: 'site',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'site', version: '1.0.0', dependencies: { a: '^1.0.0' }, devDependencies: { d: '^1.0.0' } },
      ...Object.fromEntries(Object.entries(packages).map(([path, { installed: _, ...entry }]) => [path, entry])),
    },
  };
  write(join(root, 'package-lock.json'), JSON.stringify(lock));
  for (const [path, { version, installed }] of Object.entries(packages)) {
    if (installed === null) continue;
    write(join(root, path, 'package.json'), JSON.stringify({ name: path.split('node_modules/').at(-1), version: installed ?? version }));
    write(join(root, path, 'index.js'), 'module.exports = 1;\n');
    write(join(root, path, 'index.js.map'), '{}');
    write(join(root, path, 'index.d.ts'), 'export {};\n');
  }
  return { root, stage };
}

const manifest = { name: 'site', version: '1.0.0', dependencies: { a: '^1.0.0' }, engines: { node: '>=20' } };

describe('the build stages the production packages the lock names', () => {
  it('copies each at its place, nested ones too, without maps, TypeScript or the dev packages, and writes npm’s pruned lock', () => {
    const { root, stage } = project({
      'node_modules/a': { version: '1.2.0' },
      'node_modules/a/node_modules/b': { version: '2.0.0' },
      'node_modules/d': { version: '1.0.0', dev: true },
      'node_modules/e': { version: '3.0.0', optional: true, installed: null },
    });
    expect(stageProduction(root, stage, manifest)).toEqual(['node_modules/a', 'node_modules/a/node_modules/b']);
    expect(readdirSync(join(stage, 'node_modules')).sort()).toEqual(['a']);
    expect(readdirSync(join(stage, 'node_modules', 'a')).sort()).toEqual(['index.js', 'node_modules', 'package.json']);
    expect(readdirSync(join(stage, 'node_modules', 'a', 'node_modules', 'b')).sort()).toEqual(['index.js', 'package.json']);
    const staged = JSON.parse(readFileSync(join(stage, 'package-lock.json'), 'utf8'));
    expect(staged).toEqual({
      name: 'site',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'site', version: '1.0.0', dependencies: { a: '^1.0.0' }, engines: { node: '>=20' } },
        'node_modules/a': { version: '1.2.0' },
        'node_modules/a/node_modules/b': { version: '2.0.0' },
        'node_modules/e': { version: '3.0.0', optional: true },
      },
    });
  });

  it('stops, naming the package and both versions, when one installed differs from the lock', () => {
    const { root, stage } = project({ 'node_modules/a': { version: '1.2.0', installed: '1.3.0' } });
    expect(() => stageProduction(root, stage, manifest)).toThrow(
      'node_modules/a is 1.3.0 here and 1.2.0 in package-lock.json: run npm ci, then build',
    );
  });

  it('stops when a package that is not optional is missing', () => {
    const { root, stage } = project({ 'node_modules/a': { version: '1.2.0', installed: null } });
    expect(() => stageProduction(root, stage, manifest)).toThrow('node_modules/a is not installed here and 1.2.0 in package-lock.json');
  });
});
