import type { ExportRow } from './rows';
import { EXPORTED } from '../../core/dimensions';
import { CSV_COLUMNS, CSV_TIME } from '../../contract/activity';
import { listingOf } from '../activity/audience';

/** Never read as a formula by a spreadsheet, since a campaign tag is the visitor's text. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const listCell = (entries: Array<[string, number]>) => entries.map(([name, count]) => `${name}=${count}`).join('; ');

/** RFC 4180, CRLF line ends. */
export function toCsv(rows: readonly ExportRow[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of rows) {
    const cells: Array<string | number> = [
      row.day,
      row.people_new ?? '',
      row.visits,
      row.visitor_days.people,
      row.visitor_days.scanners,
      row.visitor_days.self,
      row.visitor_days.total,
      row.sources.linkedin,
      row.sources.github,
      row.sources.search,
      row.sources.other,
      row.sources.typed,
      ...EXPORTED.map((dimension) => {
        const listing = listingOf(dimension.filter);
        return listCell((row[dimension.export.column] as Array<Parameters<typeof listing.pair>[0]>).map(listing.pair));
      }),
      ...CSV_TIME.map((column) => row[column] ?? ''),
    ];
    lines.push(cells.map(csvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
