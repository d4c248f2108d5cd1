import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIMENSION_TABLE, DIMENSIONS, EXPORTED, NAMES } from '../../shared/core/dimensions';
import { filtersSchema } from '../../shared/contract/queries';
import { CSV_COLUMNS, Devices, ExportRow, Filter } from '../../shared/contract/activity';
import { openApiText } from '../../shared/contract/openapi';
import { emptyCounts } from '../../shared/core/rollup/day-rollup';
import { valuesOf } from '../../shared/core/rollup/filters';
import { madeFiles } from '../../scripts/dashboard-files';
import { visitorDay } from '../support/counting';

const root = join(__dirname, '..', '..');

describe('the one table of dimensions', () => {
  it('names each dimension once, and every list of dimensions is the table', () => {
    expect(new Set(DIMENSIONS).size).toBe(DIMENSION_TABLE.length);
    expect(Filter.shape.dimension.options).toEqual(DIMENSIONS);
    for (const dimension of DIMENSIONS)
      expect(filtersSchema.safeParse([`${dimension}:x`, `!${dimension}:y`]).success, dimension).toBe(true);
    const filterWords = openApiText();
    for (const dimension of DIMENSIONS) expect(filterWords, dimension).toContain(`\`${dimension}\``);
  });

  it('gives every dimension its rollup field, its filter values, and its card, export and dashboard lists', () => {
    const counts = emptyCounts();
    for (const row of DIMENSION_TABLE) expect(counts, row.filter).toHaveProperty(row.rollup);
    const day = { ...visitorDay('2026-10-23', 'a', { requests: 1 }), paths: { '/': 1 }, page_loads: 1 };
    expect([...valuesOf([day], { steps: [], goals: [] }).keys()]).toEqual(DIMENSIONS);
    expect(Object.keys(Devices.shape)).toEqual(NAMES.map((row) => row.card));
    for (const row of EXPORTED) {
      expect(CSV_COLUMNS, row.filter).toContain(row.export.column);
      expect(Object.keys(ExportRow.shape), row.filter).toContain(row.export.column);
    }
    const dashboard = readFileSync(join(root, 'public', 'admin-dimensions.js'), 'utf8');
    expect([...dashboard.matchAll(/\{ filter: '([a-z-]+)'/g)].map((m) => m[1])).toEqual(DIMENSIONS);
  });

  it("keeps the dashboard's made files what the code makes (npm run dashboard)", () => {
    for (const { file, text } of madeFiles(root)) expect(readFileSync(join(root, file), 'utf8'), file).toBe(text);
  });
});
