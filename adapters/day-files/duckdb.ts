import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBBlobValue, DuckDBConnection, DuckDBListValue } from '@duckdb/node-api';
import { COLUMNS, countsOfEntries, type CountEntry, type TokenRow } from '../../shared/core/rollup/day-columns';
import type { Filter } from '../../shared/core/rollup/filters';
import { REGISTERS, type Sketch } from '../../shared/core/sketch';
import type { DaysTally, Sketches } from '../../shared/core/store/day-files';

const quoted = (name: string) => `"${name}"`;

/** A count entry is one integer: its count times CODES plus its code in the file's dictionary of fields and keys. */
const CODES = 16_777_216;

/** A register is one integer: its sketch times SKETCH, then its register times 64 plus its rank. */
const SKETCH = 1_048_576;

const SKETCHES = ['people', 'fresh', 'back'] as const;

const SCHEMA = `{day: 'VARCHAR', token: 'VARCHAR', who: 'VARCHAR', partial: 'BOOLEAN', ${COLUMNS.map((column) => `${quoted(column)}: 'VARCHAR[]'`).join(', ')}, counts: 'BIGINT[]', registers: 'INTEGER[]', firsts: 'STRUCT(first VARCHAR, r INTEGER, k INTEGER)[]'}`;

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Four base64url digits a register of `r` and `k`, as a packed sketch holds it: 14 bits of register, 6 of rank, 4 unused. */
const digit = (shift: number) => `substr('${DIGITS}', ((((r << 10) | (k << 4)) >> ${shift}) & 63)::INTEGER + 1, 1)`;
const PACKED = `string_agg(${[18, 12, 6, 0].map(digit).join(' || ')}, '' ORDER BY r)`;

const DIGIT_CODES = Buffer.from(DIGITS, 'latin1');

/** Past this many registers set, a dense sketch is smaller than a packed one, and merges faster. */
const PACKED_MOST = REGISTERS / 4;

/** The registers the engine merged, as a sketch: packed (four base64url digits each) while few, else dense. */
function sketchOf(values: readonly number[]): Sketch {
  if (values.length > PACKED_MOST) {
    const codes = Buffer.alloc(REGISTERS, DIGIT_CODES[0]);
    for (const value of values) codes[(value >> 6) & (REGISTERS - 1)] = DIGIT_CODES[value & 63]!;
    return { dense: codes.toString('latin1') };
  }
  const codes = Buffer.alloc(values.length * 4);
  values.forEach((value, at) => {
    const bits = (((value >> 6) & (REGISTERS - 1)) << 10) | ((value & 63) << 4);
    for (let i = 0; i < 4; i += 1) codes[at * 4 + i] = DIGIT_CODES[(bits >> (18 - 6 * i)) & 63]!;
  });
  return { packed: codes.toString('latin1') };
}

/** The filters as a WHERE on the columns, their values as parameters: a person's counts, or any kind's sketches. */
export function whereOf(filters: readonly Filter[], people: boolean): { sql: string; values: string[] } {
  const terms = filters.map((filter, at) => `${filter.negated ? 'NOT ' : ''}list_contains(${quoted(filter.dimension)}, $${at + 1})`);
  return { sql: [people ? "who = 'people'" : 'who IS NOT NULL', ...terms].join(' AND '), values: filters.map((filter) => filter.value) };
}

/** A file's count entries, each coded once in the order first met. */
class Dictionary {
  readonly names: Array<[string, string]> = [];
  private readonly codes = new Map<string, number>();

  coded({ field, key, count }: CountEntry): string {
    const name = `${field}\n${key}`;
    let code = this.codes.get(name);
    if (code === undefined) {
      code = this.names.push([field, key]) - 1;
      this.codes.set(name, code);
    }
    return (BigInt(count) * BigInt(CODES) + BigInt(code)).toString();
  }
}

const registersOf = (row: TokenRow) => SKETCHES.flatMap((sketch, s) => row[sketch].map(([r, k]) => s * SKETCH + r * 64 + k));

/** A row as one line of JSON; its counts are written as digits, since they may pass a double's whole numbers. */
const lineOf = (row: TokenRow, dictionary: Dictionary) =>
  `${JSON.stringify({
    day: row.day,
    token: row.token,
    who: row.who,
    partial: row.partial,
    ...row.values,
    registers: registersOf(row),
    firsts: row.firsts.map(([first, r, k]) => ({ first, r, k })),
  }).slice(0, -1)},"counts":[${row.counts.map((entry) => dictionary.coded(entry)).join(',')}]}\n`;

const text = (value: unknown) => Buffer.from((value as DuckDBBlobValue).bytes).toString('utf8');

/** One embedded engine a process, a thread a core within a bounded memory, on a temporary folder of its own. */
export class DuckEngine {
  private constructor(
    private readonly connection: DuckDBConnection,
    readonly folder: string,
  ) {}

  static async open(memoryLimit = '512MB'): Promise<DuckEngine> {
    // Loaded on the first question that needs it, so an instance that only takes hits never holds the engine.
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(':memory:', { threads: String(availableParallelism()), memory_limit: memoryLimit });
    return new DuckEngine(await instance.connect(), await mkdtemp(join(tmpdir(), 'headcount-days-')));
  }

  /**
   * A day's token rows as one Parquet file (zstd), sorted by token, written a page at a time so memory holds a page; the
   * dictionary of its counts' fields and keys is the file's metadata `counts`, beside its `day`.
   */
  async parquetOf(pages: AsyncIterable<readonly TokenRow[]> | Iterable<readonly TokenRow[]>): Promise<Buffer> {
    const name = join(this.folder, `${process.hrtime.bigint()}`);
    const dictionary = new Dictionary();
    let day = '';
    await writeFile(`${name}.ndjson`, '');
    for await (const rows of pages) {
      day ||= rows[0]?.day ?? '';
      await appendFile(`${name}.ndjson`, rows.map((row) => lineOf(row, dictionary)).join(''));
    }
    const names = JSON.stringify(dictionary.names).replaceAll("'", "''");
    try {
      await this.connection.run(
        `COPY (SELECT * FROM read_json('${name}.ndjson', format = 'newline_delimited', columns = ${SCHEMA}) ORDER BY token) TO '${name}.parquet' (FORMAT parquet, COMPRESSION zstd, KV_METADATA {day: '${day}', counts: '${names}'})`,
      );
      return await readFile(`${name}.parquet`);
    } finally {
      await Promise.all([rm(`${name}.ndjson`, { force: true }), rm(`${name}.parquet`, { force: true })]);
    }
  }

  /** The compressed bytes of the columns a question reads: what a reader of only them takes from Blob Storage. */
  private async columnBytes(list: string, filters: readonly Filter[]): Promise<number> {
    const asked = new Set(['day', 'who', 'partial', 'counts', 'registers', ...filters.map((filter) => filter.dimension)]);
    const reader = await this.connection.runAndReadAll(
      `SELECT path_in_schema::VARCHAR, total_compressed_size::DOUBLE FROM parquet_metadata(${list})`,
    );
    return (reader.getRows() as Array<[string, number]>)
      .filter(([path]) => asked.has(path.split(',')[0]!.trim()))
      .reduce((sum, [, size]) => sum + size, 0);
  }

  /** Each file's dictionary of count entries, by its day. */
  private async dictionaries(list: string): Promise<Map<string, Array<[string, string]>>> {
    const reader = await this.connection.runAndReadAll(
      `SELECT file_name, key::VARCHAR, value FROM parquet_kv_metadata(${list}) WHERE key IN ('day'::BLOB, 'counts'::BLOB)`,
    );
    const files = new Map<string, { day?: string; names?: Array<[string, string]> }>();
    for (const [file, key, value] of reader.getRows() as Array<[string, string, unknown]>) {
      const at = files.get(file) ?? {};
      if (key === 'day') at.day = text(value);
      else at.names = JSON.parse(text(value)) as Array<[string, string]>;
      files.set(file, at);
    }
    return new Map([...files.values()].map(({ day, names }) => [day ?? '', names ?? []]));
  }

  /** Every figure of the matching rows, summed by the engine: each day's counts, and its sketches merged. */
  async tally(files: readonly string[], filters: readonly Filter[]): Promise<DaysTally> {
    const answer: DaysTally = { counts: new Map(), sketches: new Map(), bytes: 0 };
    if (files.length === 0) return answer;
    const list = `[${files.map((file) => `'${file}'`).join(', ')}]`;
    const source = `read_parquet(${list})`;
    const people = whereOf(filters, true);
    const [counts, dictionaries] = await Promise.all([
      this.connection.runAndReadAll(
        `SELECT day, code, sum((e - code) // ${CODES})::DOUBLE, bool_or(partial)
         FROM (SELECT day, partial, e, e & ${CODES - 1} AS code FROM (SELECT day, partial, unnest(counts) AS e FROM ${source} WHERE ${people.sql}))
         GROUP BY ALL`,
        people.values,
      ),
      this.dictionaries(list),
    ]);
    const byDay = new Map<string, { entries: CountEntry[]; partial: boolean }>();
    for (const [day, code, count, partial] of counts.getRows() as Array<[string, bigint, number, boolean]>) {
      const [field, key] = dictionaries.get(day)![Number(code)]!;
      const at = byDay.get(day) ?? { entries: [], partial: false };
      at.entries.push({ field, key, count });
      at.partial ||= partial;
      byDay.set(day, at);
    }
    for (const [day, { entries, partial }] of byDay) answer.counts.set(day, { ...countsOfEntries(entries), partial });
    const any = whereOf(filters, false);
    // The highest of a register's values is its highest rank, so one max a register merges a day's sketches.
    const sketches = await this.connection.runAndReadAll(
      `SELECT day, (v // ${SKETCH})::INTEGER, list(v) FROM (
         SELECT day, max(v) AS v FROM (SELECT day, unnest(registers) AS v FROM ${source} WHERE ${any.sql}) GROUP BY day, v // 64
       ) GROUP BY ALL`,
      any.values,
    );
    for (const [day, s, values] of sketches.getRows() as Array<[string, number, DuckDBListValue]>) {
      const at = answer.sketches.get(day) ?? { people: { sparse: {} }, fresh: { sparse: {} }, back: { sparse: {} } };
      at[SKETCHES[s]! satisfies keyof Sketches<Sketch>] = sketchOf(values.items as number[]);
      answer.sketches.set(day, at);
    }
    answer.bytes = await this.columnBytes(list, filters);
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
