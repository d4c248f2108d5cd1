import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { memoryStore } from '../../adapters/memory/store';
import { fixedClock } from '../../shared/core/ports/clock';
import { hitsMessageSchema } from '../../shared/core/message';
import { filtersSchema } from '../../shared/contract/queries';
import { CSV_COLUMNS, CSV_TIME, Devices, ExportRow } from '../../shared/contract/activity';
import { emptyCounts } from '../../shared/core/rollup/day-rollup';
import { cardOf } from '../support/card';
import { keepAndFold, queuedHit } from '../support/counting';
import { madeFiles } from '../../scripts/dashboard-files';

// Screen size was added as one row of the table: nothing else of the keep, the fold, the reads or the dashboard was told of it.
const DAY = '2026-10-23';
const hit = (person: string, screen: string) => ({ ...queuedHit(`${DAY}T10:00:00.000Z`, { person, path: '/', page_load: true }), screen });

describe('screen size, a dimension added as one row of the table', () => {
  it('is carried by the queue, kept, folded, counted, filtered and read with no other change', async () => {
    const hits = [hit('a', 'laptop'), hit('b', 'laptop'), hit('c', 'phone')];
    expect(hitsMessageSchema.safeParse({ v: 1, id: randomUUID(), hits }).success).toBe(true);
    // A field no row names is still refused.
    expect(hitsMessageSchema.safeParse({ v: 1, id: randomUUID(), hits: [{ ...hits[0], shape: 'round' }] }).success).toBe(false);
    const store = memoryStore();
    const clock = fixedClock(`${DAY}T12:00:00.000Z`);
    await keepAndFold(store, clock, hits);
    const card = cardOf(store, clock);

    const all = await card('days=1');
    expect(all.status).toBe(200);
    expect(all.body.devices.screens).toEqual([
      { name: 'laptop', visitor_days: 2 },
      { name: 'phone', visitor_days: 1 },
    ]);
    const laptop = await card('days=1&filter=screen:laptop');
    expect(laptop.status).toBe(200);
    expect(laptop.body.headline.people).toBe(2);
    expect((await card('days=1&filter=!screen:laptop')).body.headline.people).toBe(1);
  });

  it('is a filter, a rollup field, a list of the card and of the export, and a dimension of the dashboard', () => {
    expect(filtersSchema.safeParse(['screen:laptop']).success).toBe(true);
    expect(emptyCounts()).toHaveProperty('screens', {});
    expect(Object.keys(Devices.shape)).toContain('screens');
    expect(Object.keys(ExportRow.shape)).toContain('screens');
    // The last list column, before time on site's figures.
    expect(CSV_COLUMNS.at(-1 - CSV_TIME.length)).toBe('screens');
    const dashboard = madeFiles(join(__dirname, '..', '..')).find((made) => made.file === 'public/admin-dimensions.js')!;
    expect(dashboard.text).toContain("{ filter: 'screen', label: 'Screen size', words: 'maker', tab: 'screen-sizes', card: 'screens' }");
    expect(dashboard.text).toContain("EXPORT_LISTS = ['countries', 'browsers', 'campaigns', 'screens']");
  });
});
