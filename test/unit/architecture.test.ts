import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { loadFunctions } from '../../host/local/host';

const root = join(__dirname, '..', '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** What a file imports (static, dynamic or required), each a package name or a path from the project's root. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*|^import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
  return specifiers.map((specifier) => (specifier.startsWith('.') ? relative(root, resolve(dirname(file), specifier)) : specifier));
}

/** Each file under `dir` with the imports of it that `refused` picks, for the files that have any. */
function offendingImports(dir: string, refused: (specifier: string) => boolean): Record<string, string[]> {
  const offenders = filesUnder(join(root, dir)).map((file) => [relative(root, file), importsOf(file).filter(refused)] as const);
  return Object.fromEntries(offenders.filter(([, found]) => found.length > 0));
}

describe('the layout holds', () => {
  it('domain code under shared/ never imports @azure/*, adapters/, host/ or the settings', () => {
    const refused = (specifier: string) =>
      specifier.startsWith('@azure/') || /^(adapters|host|functions)(\/|$)/.test(specifier) || /(^|\/)settings$/.test(specifier);
    expect(offendingImports('shared', refused)).toEqual({});
  });

  it('no file under functions/ imports an adapter: every dependency comes from the composition root', () => {
    expect(offendingImports('functions', (specifier) => /^adapters(\/|$)/.test(specifier) || specifier.startsWith('@azure/'))).toEqual({});
  });

  it('every function hands its use case what the root built for it: none builds a dependency or names a setting', () => {
    const offenders = filesUnder(join(root, 'functions')).filter((file) =>
      /root\.(settings|store|clock)\b/.test(readFileSync(file, 'utf8')),
    );
    expect(offenders.map((file) => relative(root, file))).toEqual([]);
  });

  it('nothing under shared/ or adapters/ keeps module-level state: the composition root is the one place that does', () => {
    const offenders = [...filesUnder(join(root, 'shared')), ...filesUnder(join(root, 'adapters'))].filter((file) =>
      /^(export\s+)?(let|var)\s/m.test(readFileSync(file, 'utf8')),
    );
    expect(offenders.map((file) => relative(root, file))).toEqual([]);
  });

  it('each file under functions/ registers exactly one function, named like the file', async () => {
    const files = readdirSync(join(root, 'functions'))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => file.replace(/\.ts$/, ''));
    const registrations = await loadFunctions();
    expect(registrations.map((r) => r.name).sort()).toEqual(files.sort());
  });

  it('every timer has a six-field NCRONTAB schedule that croner reads, and every route is unique', async () => {
    const registrations = await loadFunctions();
    for (const registration of registrations) {
      if (registration.kind === 'timer') {
        expect(registration.schedule.trim().split(/\s+/)).toHaveLength(6);
        expect(new Cron(registration.schedule, { paused: true }).nextRun()).toBeInstanceOf(Date);
      }
    }
    const routes = registrations.flatMap((r) => (r.kind === 'http' ? r.methods.map((m) => `${m} ${r.route.toLowerCase()}`) : []));
    expect(new Set(routes).size).toBe(routes.length);
  });
});

describe('the routes work in the real Functions host', () => {
  it('no route template starts with a segment the host keeps for itself (admin, runtime), under an empty routePrefix', async () => {
    const { hostRoute } = await import('../../host/registry');
    const hostJson = JSON.parse(readFileSync(join(root, 'host.json'), 'utf8')) as { extensions: { http: { routePrefix: string } } };
    expect(hostJson.extensions.http.routePrefix).toBe('');
    const templates = (await loadFunctions()).flatMap((r) => (r.kind === 'http' ? [hostRoute(r)] : []));
    expect(templates.length).toBeGreaterThan(0);
    for (const template of templates) {
      expect(template.startsWith('api/')).toBe(true);
      expect(/^(admin|runtime)/i.test(template)).toBe(false);
    }
  });
});
