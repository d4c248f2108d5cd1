import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { loadFunctions } from '../../local/host';

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

/** Each file under the project's code folders and the project files it imports, by path from the root. */
function importGraph(): Map<string, string[]> {
  const files = ['shared', 'host', 'local', 'functions', 'adapters']
    .flatMap((dir) => filesUnder(join(root, dir)))
    .map((file) => relative(root, file));
  const known = new Set(files);
  const asFile = (path: string) => [path, `${path}.ts`, `${path}/index.ts`].find((one) => known.has(one));
  return new Map(files.map((file) => [file, importsOf(join(root, file)).flatMap((specifier) => asFile(specifier) ?? [])] as const));
}

/** The stage of a file under shared/: its first folder. */
const stageOf = (file: string) => /^shared\/([^/]+)\//.exec(file)?.[1];

/** The flow of a hit, each stage after the ones it may import. */
const STAGES = ['core', 'contract', 'ingest', 'keep', 'fold', 'read'];

/** Every import from a file under shared/ to a later stage, or to no stage, as `from -> to`. */
function importsUpstream(graph: Map<string, string[]>): string[] {
  const rank = (file: string) => STAGES.indexOf(stageOf(file) ?? '');
  return [...graph].flatMap(([file, imports]) =>
    file.startsWith('shared/')
      ? imports.filter((to) => to.startsWith('shared/') && rank(to) > rank(file)).map((to) => `${file} -> ${to}`)
      : [],
  );
}

/** Every loop of imports, each as its files from the one that sorts first (a depth-first search). */
function circles(graph: Map<string, string[]>): string[] {
  const found = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        const loop = path.slice(path.indexOf(next));
        const start = loop.indexOf([...loop].sort()[0]!);
        found.add([...loop.slice(start), ...loop.slice(0, start)].join(' -> '));
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return [...found];
}

/** The graph with one import added, as a change that breaks a rule would add it. */
const withImport = (graph: Map<string, string[]>, from: string, to: string) =>
  new Map([...graph, [from, [...(graph.get(from) ?? []), to]]]);

/** Every import from what Azure runs (functions/, host/, adapters/, shared/) to the local stack, as `from -> to`. */
const azureImportsLocal = (graph: Map<string, string[]>) =>
  [...graph].flatMap(([file, imports]) =>
    file.startsWith('local/') ? [] : imports.filter((to) => to.startsWith('local/')).map((to) => `${file} -> ${to}`),
  );

describe('host/ is what Azure runs; the local stack stands apart under local/', () => {
  const graph = importGraph();

  it('nothing Azure runs imports local/', () => {
    expect(azureImportsLocal(graph)).toEqual([]);
    expect(azureImportsLocal(withImport(graph, 'host/composition.ts', 'local/services.ts'))).toEqual([
      'host/composition.ts -> local/services.ts',
    ]);
  });
});

describe('shared/ follows the flow of a hit: core, contract, ingest, keep, fold, read', () => {
  const graph = importGraph();

  it('no files import each other in a loop', () => {
    expect(circles(graph)).toEqual([]);
    expect(circles(withImport(graph, 'shared/core/days.ts', 'shared/core/lanes.ts'))).toEqual([]);
    expect(
      circles(withImport(withImport(graph, 'shared/core/lanes.ts', 'shared/core/days.ts'), 'shared/core/days.ts', 'shared/core/lanes.ts')),
    ).toEqual(['shared/core/days.ts -> shared/core/lanes.ts']);
  });

  it('each stage imports only the stages before it: core, contract, ingest, keep, fold, read', () => {
    expect(importsUpstream(graph)).toEqual([]);
    expect(importsUpstream(withImport(graph, 'shared/ingest/receive.ts', 'shared/keep/keep.ts'))).toEqual([
      'shared/ingest/receive.ts -> shared/keep/keep.ts',
    ]);
    expect(importsUpstream(withImport(graph, 'shared/contract/routes.ts', 'shared/ingest/receive.ts'))).toEqual([
      'shared/contract/routes.ts -> shared/ingest/receive.ts',
    ]);
    expect(importsUpstream(withImport(graph, 'shared/core/days.ts', 'shared/contract/common.ts'))).toEqual([
      'shared/core/days.ts -> shared/contract/common.ts',
    ]);
    expect(importsUpstream(withImport(graph, 'shared/fold/fold.ts', 'shared/read/activity/report.ts'))).toEqual([
      'shared/fold/fold.ts -> shared/read/activity/report.ts',
    ]);
  });

  it('every file under shared/ stands in one of the stages', () => {
    expect([...graph.keys()].filter((file) => file.startsWith('shared/') && !STAGES.includes(stageOf(file) ?? ''))).toEqual([]);
  });
});
