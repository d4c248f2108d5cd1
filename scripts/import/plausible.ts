import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { Unzip, UnzipInflate } from 'fflate';
import type { ImportedDay } from '../../shared/contract/import';

/** The CSV files of Plausible's export that are read; the others (devices, browsers, entry and exit pages) are not. */
const TABLES = ['visitors', 'pages', 'sources', 'locations'] as const;
type Table = (typeof TABLES)[number];

/** Which table a file of the export is, by its name (`imported_visitors_20240101_20241231.csv`); null for the others. */
export function plausibleTable(name: string): Table | null {
  const match = /(?:^|\/)imported_([a-z_]+?)(?:_\d{8}_\d{8})?\.csv$/i.exec(name);
  const table = match?.[1]?.toLowerCase();
  return TABLES.find((known) => known === table) ?? null;
}

/** One CSV line's fields (RFC 4180 quoting; a quoted field does not span lines in these exports). */
export function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}

interface DayTotals {
  visitors: number | null;
  pageviews: number | null;
  visits: number | null;
  pages: Map<string, number>;
  sources: Map<string, number>;
  countries: Map<string, number>;
}

/** A problem with one line of the export, where it is and why. */
export interface CsvProblem {
  where: string;
  why: string;
}

/** The most names of a day's pages, sources or countries sent (the endpoint's bound); the rest are summed under `(other)`. */
const NAMES_SENT = 1_000;

function topNames(counts: Map<string, number>): Record<string, number> {
  const sorted = [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  const kept = Object.fromEntries(sorted.slice(0, NAMES_SENT - 1));
  const rest = sorted.slice(NAMES_SENT - 1).reduce((sum, [, count]) => sum + count, 0);
  return rest > 0 ? { ...kept, '(other)': (kept['(other)'] ?? 0) + rest } : kept;
}

/**
 * Plausible's CSV export, read into each day's totals: `imported_visitors` (date, visitors, pageviews, visits) names
 * the days; `imported_pages` adds pageviews by page, `imported_sources` visitors by source, `imported_locations`
 * visitors by country. Columns are found by their header, so an export with more or fewer columns still reads.
 */
export class PlausibleTotals {
  private readonly days = new Map<string, DayTotals>();
  readonly problems: CsvProblem[] = [];
  problemCount = 0;
  rows = 0;
  tables = new Set<Table>();

  private day(date: string): DayTotals {
    let totals = this.days.get(date);
    if (!totals) {
      totals = { visitors: null, pageviews: null, visits: null, pages: new Map(), sources: new Map(), countries: new Map() };
      this.days.set(date, totals);
    }
    return totals;
  }

  private problem(where: string, why: string) {
    this.problemCount += 1;
    if (this.problems.length < 10) this.problems.push({ where, why });
  }

  /** A reader of one CSV file of the export: feed it lines in order. */
  table(table: Table, name: string): (line: string, number: number) => void {
    this.tables.add(table);
    let header: Map<string, number> | null = null;
    return (line, number) => {
      if (line.trim() === '') return;
      const fields = csvFields(line);
      if (header === null) {
        header = new Map(
          fields.map(
            (field, index) =>
              [
                field
                  .trim()
                  .toLowerCase()
                  .replace(/^\ufeff/, ''),
                index,
              ] as const,
          ),
        );
        if (!header.has('date')) this.problem(`${name}:${number}`, 'its header has no date column');
        return;
      }
      const get = (column: string) => {
        const index = header!.get(column);
        return index === undefined ? undefined : fields[index];
      };
      const date = get('date') ?? '';
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return this.problem(`${name}:${number}`, 'its date cannot be read');
      const number_ = (column: string): number | null | 'bad' => {
        const value = get(column);
        if (value === undefined || value === '') return null;
        return /^\d+$/.test(value) ? Number(value) : 'bad';
      };
      const measure = table === 'pages' ? (number_('pageviews') ?? number_('visitors')) : number_('visitors');
      if (measure === 'bad' || measure === null) return this.problem(`${name}:${number}`, 'its count cannot be read');
      this.rows += 1;
      const totals = this.day(date);
      const add = (into: Map<string, number>, key: string) => into.set(key, (into.get(key) ?? 0) + measure);
      if (table === 'visitors') {
        const pageviews = number_('pageviews');
        const visits = number_('visits');
        totals.visitors = (totals.visitors ?? 0) + measure;
        if (typeof pageviews === 'number') totals.pageviews = (totals.pageviews ?? 0) + pageviews;
        if (typeof visits === 'number') totals.visits = (totals.visits ?? 0) + visits;
      } else if (table === 'pages') {
        const page = get('page');
        if (page) add(totals.pages, page);
      } else if (table === 'sources') {
        add(totals.sources, get('source') || 'Direct / None');
      } else {
        const country = get('country') ?? '';
        if (/^[A-Za-z]{2}$/.test(country)) add(totals.countries, country.toUpperCase());
      }
    };
  }

  /** Every day the visitors table names, oldest first, as the endpoint takes it. */
  result(): ImportedDay[] {
    return [...this.days]
      .filter(([, totals]) => totals.visitors !== null)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([day, totals]) => ({
        day,
        source: 'plausible',
        visitors: totals.visitors!,
        pageviews: totals.pageviews,
        visits: totals.visits,
        pages: topNames(totals.pages),
        sources: topNames(totals.sources),
        countries: topNames(totals.countries),
      }));
  }
}

/** Feeds text chunks to a line reader, lines numbered from 1. */
function lineSplitter(each: (line: string, number: number) => void) {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let number = 0;
  const flushLines = (text: string) => {
    const lines = (rest + text).split(/\r?\n/);
    rest = lines.pop() ?? '';
    for (const line of lines) each(line, ++number);
  };
  return {
    push: (chunk: Uint8Array) => flushLines(decoder.write(Buffer.from(chunk))),
    end: () => {
      flushLines(decoder.end());
      if (rest !== '') each(rest, ++number);
      rest = '';
    },
  };
}

/** Reads Plausible's export zip from a stream, a file at a time as it is inflated: memory holds the days' totals, not the files. */
export async function readPlausibleZip(stream: Readable, name: string, into: PlausibleTotals): Promise<number> {
  let files = 0;
  const unzip = new Unzip((file) => {
    const table = plausibleTable(file.name);
    if (table === null) return;
    files += 1;
    const lines = lineSplitter(into.table(table, `${name}/${file.name}`));
    file.ondata = (error, chunk, final) => {
      if (error) throw error;
      lines.push(chunk);
      if (final) lines.end();
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  for await (const chunk of stream) unzip.push(chunk as Uint8Array);
  unzip.push(new Uint8Array(0), true);
  return files;
}

/** Whether a file's name is one of the export's CSV files (`imported_browsers_….csv` too, which is not read). */
export const isPlausibleCsv = (name: string) => /(?:^|\/)imported_[a-z_]+?(?:_\d{8}_\d{8})?\.csv$/i.test(name);

/** Reads one of the export's CSV files on its own (`imported_visitors_….csv`); answers whether it is one that is read. */
export async function readPlausibleCsv(path: string, name: string, into: PlausibleTotals): Promise<boolean> {
  const table = plausibleTable(name);
  if (table === null) return false;
  const lines = lineSplitter(into.table(table, name));
  for await (const chunk of createReadStream(path)) lines.push(chunk as Uint8Array);
  lines.end();
  return true;
}
