import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { COLUMNS, countsOfEntries, type CountEntry, type Registers, type TokenRow } from '../../shared/core/rollup/day-columns';
import type { Filter } from '../../shared/core/rollup/filters';
import type { Sketch } from '../../shared/core/sketch';
import type { DaysTally, Sketches } from '../../shared/core/store/day-files';

const quoted = (name: string) => `"${name}"`;

const REGISTERS = "'STRUCT(r INTEGER, k INTEGER)[]'";

const SCHEMA = `{day: 'VARCHAR', token: 'VARCHAR', who: 'VARCHAR', partial: 'BOOLEAN', ${COLUMNS.map((column) => `${quoted(column)}: 'VARCHAR[]'`).join(', ')}, counts: 'STRUCT(field VARCHAR, key VARCHAR, count BIGINT)[]', people: ${REGISTERS}, fresh: ${REGISTERS}, back: ${REGISTERS}, firsts: 'STRUCT(first VARCHAR, r INTEGER, k INTEGER)[]'}`;

const SKETCHES = ['people', 'fresh', 'back'] as const;

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Four base64url digits a register of `r` and `k`, as a packed sketch holds it: 14 bits of register, 6 of rank, 4 unused. */
const digit = (shift: number) => `substr('${DIGITS}', ((((r << 10) | (k << 4)) >> ${shift}) & 63)::INTEGER + 1, 1)`;
const PACKED = `string_agg(${[18, 12, 6, 0].map(digit).join(' || ')}, '' ORDER BY r)`;

/** The filters as a WHERE on the columns, their values as parameters: a person's counts, or any kind's sketches. */
export function whereOf(filters: readonly Filter[], people: boolean): { sql: string; values: string[] } {
  const terms = filters.map((filter, at) => `${filter.negated ? 'NOT ' : ''}list_contains(${quoted(filter.dimension)}, $${at + 1})`);
  return { sql: [people ? "who = 'people'" : 'who IS NOT NULL', ...terms].join(' AND '), values: filters.map((filter) => filter.value) };
}

const registers = (pairs: Registers) => pairs.map(([r, k]) => ({ r, k }));

const lineOf = (row: TokenRow) =>
  JSON.stringify({
    day: row.day,
    token: row.token,
    who: row.who,
    partial: row.partial,
    ...row.values,
    counts: row.counts,
    people: registers(row.people),
    fresh: registers(row.fresh),
    back: registers(row.back),
    firsts: row.firsts.map(([first, r, k]) => ({ first, r, k })),
  });

/** One embedded engine a process, single-threaded within a bounded memory, on a temporary folder of its own. */
export class DuckEngine {
  private constructor(
    private readonly connection: DuckDBConnection,
    readonly folder: string,
  ) {}

  static async open(memoryLimit = '512MB'): Promise<DuckEngine> {
    const instance = await DuckDBInstance.create(':memory:', { threads: '1', memory_limit: memoryLimit });
    return new DuckEngine(await instance.connect(), await mkdtemp(join(tmpdir(), 'headcount-days-')));
  }

  /** A day's token rows as one Parquet file (zstd), sorted by token, written a page at a time so memory holds a page. */
  async parquetOf(pages: AsyncIterable<readonly TokenRow[]> | Iterable<readonly TokenRow[]>): Promise<Buffer> {
    const name = join(this.folder, `${process.hrtime.bigint()}`);
    await writeFile(`${name}.ndjson`, '');
    for await (const rows of pages) await appendFile(`${name}.ndjson`, rows.map((row) => `${lineOf(row)}\n`).join(''));
    try {
      await this.connection.run(
        `COPY (SELECT * FROM read_json('${name}.ndjson', format = 'newline_delimited', columns = ${SCHEMA}) ORDER BY token) TO '${name}.parquet' (FORMAT parquet, COMPRESSION zstd)`,
      );
      return await readFile(`${name}.parquet`);
    } finally {
      await Promise.all([rm(`${name}.ndjson`, { force: true }), rm(`${name}.parquet`, { force: true })]);
    }
  }

  /** The compressed bytes of the columns a question reads: what a reader of only them takes from Blob Storage. */
  async columnBytes(files: readonly string[], filters: readonly Filter[]): Promise<number> {
    if (files.length === 0) return 0;
    const asked = new Set(['day', 'who', 'partial', 'counts', ...SKETCHES, ...filters.map((filter) => filter.dimension)]);
    const reader = await this.connection.runAndReadAll(
      `SELECT path_in_schema::VARCHAR, total_compressed_size::DOUBLE FROM parquet_metadata([${files.map((file) => `'${file}'`).join(', ')}])`,
    );
    return (reader.getRows() as Array<[string, number]>)
      .filter(([path]) => asked.has(path.split(',')[0]!.trim()))
      .reduce((sum, [, size]) => sum + size, 0);
  }

  /** Every figure of the matching rows, summed by the engine: each day's counts, and its sketches packed. */
  async tally(files: readonly string[], filters: readonly Filter[]): Promise<DaysTally> {
    const answer: DaysTally = { counts: new Map(), sketches: new Map(), bytes: 0 };
    if (files.length === 0) return answer;
    const source = `read_parquet([${files.map((file) => `'${file}'`).join(', ')}])`;
    const people = whereOf(filters, true);
    const counts = await this.connection.runAndReadAll(
      `SELECT day, e.field, e.key, sum(e.count)::DOUBLE AS n, bool_or(partial) AS partial
       FROM (SELECT day, partial, unnest(counts) AS e FROM ${source} WHERE ${people.sql}) GROUP BY ALL`,
      people.values,
    );
    const byDay = new Map<string, { entries: CountEntry[]; partial: boolean }>();
    for (const [day, field, key, n, partial] of counts.getRows() as Array<[string, string, string, number, boolean]>) {
      const at = byDay.get(day) ?? { entries: [], partial: false };
      at.entries.push({ field, key, count: n });
      at.partial ||= partial;
      byDay.set(day, at);
    }
    for (const [day, { entries, partial }] of byDay) answer.counts.set(day, { ...countsOfEntries(entries), partial });
    const any = whereOf(filters, false);
    const unnested = SKETCHES.map((sketch) => `SELECT day, '${sketch}' AS s, unnest(${sketch}) AS e FROM ${source} WHERE ${any.sql}`);
    const sketches = await this.connection.runAndReadAll(
      `SELECT day, s, ${PACKED} AS packed
       FROM (SELECT day, s, e.r AS r, max(e.k) AS k FROM (${unnested.join(' UNION ALL ')}) GROUP BY ALL) GROUP BY ALL`,
      any.values,
    );
    for (const [day, s, packed] of sketches.getRows() as Array<[string, keyof Sketches<Sketch>, string]>) {
      const at = answer.sketches.get(day) ?? { people: { sparse: {} }, fresh: { sparse: {} }, back: { sparse: {} } };
      at[s] = { packed };
      answer.sketches.set(day, at);
    }
    answer.bytes = await this.columnBytes(files, filters);
    return answer;
  }

  /** The matching rows' people by first month and month seen, merged by the engine. */
  async cohorts(files: readonly string[], filters: readonly Filter[]): Promise<Map<string, Sketch>> {
    if (files.length === 0) return new Map();
    const any = whereOf(filters, false);
    const cells = await this.connection.runAndReadAll(
      `SELECT cohort || '|' || month, ${PACKED} FROM (
         SELECT substr(f.first, 1, 7) AS cohort, substr(day, 1, 7) AS month, f.r AS r, max(f.k) AS k
         FROM (SELECT day, unnest(firsts) AS f FROM read_parquet([${files.map((file) => `'${file}'`).join(', ')}]) WHERE ${any.sql}) GROUP BY ALL
       ) GROUP BY cohort, month`,
      any.values,
    );
    return new Map((cells.getRows() as Array<[string, string]>).map(([key, packed]) => [key, { packed }]));
  }
}
