import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// The one table of the stored documents (docs/keeping-and-counting.md) says what the code defines: every kind once, each
// defined where it says, and each writer and reader a function or a file that exists.

const root = join(__dirname, '..', '..');
const DOC = 'docs/keeping-and-counting.md';
const HEADING = '### The stored documents';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The kinds a text defines: an interface's `kind: '<x>';` member, or a `kind` literal right after a `pk`, on its line
 * or the next (a document built whole, like the adapter's store clock).
 */
function kindsIn(text: string): string[] {
  const members = [...text.matchAll(/^\s+kind: '([a-z-]+)';$/gm)];
  const documents = [...text.matchAll(/\bpk\??:[^\n]*(?:\n[^\n]*)?\bkind: '([a-z-]+)'/g)];
  return [...members, ...documents].map((match) => match[1]!);
}

/** Each document kind defined under shared/ and adapters/, with the files that define it. */
function definedKinds(): Map<string, Set<string>> {
  const kinds = new Map<string, Set<string>>();
  for (const file of [...filesUnder(join(root, 'shared')), ...filesUnder(join(root, 'adapters'))]) {
    for (const kind of kindsIn(readFileSync(file, 'utf8'))) {
      kinds.set(kind, (kinds.get(kind) ?? new Set()).add(relative(root, file)));
    }
  }
  return kinds;
}

interface Row {
  kind: string;
  writers: string;
  readers: string;
  definedIn: string;
}

/** The rows of the table under the heading: kind, partition, id, written by, read by, defined in. */
function rowsOf(doc: string): { count: number | null; rows: Row[] } {
  const section = doc.slice(doc.indexOf(HEADING)).split('\n').slice(1);
  const count = /^(\d+) kinds of document/m.exec(section.join('\n'))?.[1];
  const start = section.findIndex((line) => line.startsWith('|'));
  const end = section.findIndex((line, at) => at > start && !line.startsWith('|'));
  const lines = section.slice(start + 2, end === -1 ? undefined : end);
  const rows = lines.map((line) => {
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
    return {
      kind: cells[0]!.replace(/`/g, ''),
      writers: cells[3] ?? '',
      readers: cells[4] ?? '',
      definedIn: (cells[5] ?? '').replace(/`/g, ''),
    };
  });
  return { count: count === undefined ? null : Number(count), rows };
}

/** The names in backticks of a writers' or readers' cell that look like a function (`keep-hits`) or a path (`shared/…`). */
const namesIn = (cell: string) =>
  [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!).filter((name) => /^[a-z][a-z0-9-]*$/.test(name) || name.includes('/'));

/** A name is a function (`functions/<name>.ts`) or a file of the repository. */
const named = (name: string) => existsSync(join(root, 'functions', `${name}.ts`)) || existsSync(join(root, name));

/** What the table gets wrong against the definitions; every list empty when it holds. */
function tableProblems(doc: string, defined: ReadonlyMap<string, ReadonlySet<string>>, exists: (name: string) => boolean) {
  const { count, rows } = rowsOf(doc);
  const listed = rows.map((row) => row.kind);
  return {
    missing: [...defined.keys()].filter((kind) => !listed.includes(kind)).sort(),
    undefined: listed.filter((kind) => !defined.has(kind)),
    repeated: listed.filter((kind, at) => listed.indexOf(kind) !== at),
    wrongFile: rows.filter((row) => defined.has(row.kind) && !defined.get(row.kind)!.has(row.definedIn)).map((row) => row.kind),
    unnamed: rows.flatMap((row) =>
      [...namesIn(row.writers), ...namesIn(row.readers)].filter((name) => !exists(name)).map((name) => `${row.kind}: ${name}`),
    ),
    silent: rows.filter((row) => namesIn(row.writers).length === 0).map((row) => row.kind),
    count: count === rows.length ? null : `the text says ${count}, the table has ${rows.length}`,
  };
}

const NONE = { missing: [], undefined: [], repeated: [], wrongFile: [], unnamed: [], silent: [], count: null };

describe('the table of the stored documents', () => {
  const doc = readFileSync(join(root, DOC), 'utf8');
  const defined = definedKinds();
  const rowOf = (kind: string) => doc.split('\n').find((line) => line.startsWith(`| \`${kind}\` |`))!;

  it('lists every kind the code defines, once, where it is defined, with writers and readers that exist', () => {
    expect(defined.size).toBeGreaterThanOrEqual(24);
    expect(tableProblems(doc, defined, named)).toEqual(NONE);
  });

  it('finds a kind left out of the table, one listed twice, and one that is defined nowhere', () => {
    const record = rowOf('visitor-record');
    expect(tableProblems(doc.replace(`${record}\n`, ''), defined, named)).toMatchObject({ missing: ['visitor-record'] });
    expect(tableProblems(doc.replace(record, `${record}\n${record}`), defined, named)).toMatchObject({ repeated: ['visitor-record'] });
    const made = rowOf('fact').replace('`fact`', '`fact-copy`');
    expect(tableProblems(doc.replace(record, `${record}\n${made}`), defined, named)).toMatchObject({ undefined: ['fact-copy'] });
  });

  it('finds a row whose file does not define its kind, or that names a writer or reader that does not exist', () => {
    const lease = rowOf('fold-lease');
    const elsewhere = lease.replace('shared/core/store/fold-lease.ts', 'shared/core/store/fold.ts');
    expect(tableProblems(doc.replace(lease, elsewhere), defined, named)).toMatchObject({ wrongFile: ['fold-lease'] });
    const stranger = lease.replace('| `recount`, before', '| `refold`, before');
    expect(tableProblems(doc.replace(lease, stranger), defined, named)).toMatchObject({ unnamed: ['fold-lease: refold'] });
  });

  it('finds a new kind the code defines that the table does not list yet, and a count that no longer matches', () => {
    const more = new Map(defined).set('fold-note', new Set(['shared/core/store/fold.ts']));
    expect(tableProblems(doc, more, named)).toMatchObject({ missing: ['fold-note'] });
    expect(tableProblems(doc.replace(`${rowOf('goal-day')}\n`, ''), defined, named).count).toBe(
      `the text says ${defined.size}, the table has ${defined.size - 1}`,
    );
  });
});
