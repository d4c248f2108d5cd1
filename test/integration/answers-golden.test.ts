import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { expectedFromFixture } from '../support/golden-expected';
import { D0, GOLDEN_ENV, GOLDEN_SUBJECTS, START } from '../support/golden-fixture';
import { added, normalised, readAll, recorded, runGolden } from '../support/golden-run';
import { startTestHost, type TestHost } from '../support/host';
import { testSecret } from '../support/day-secrets';

// Every answer a user sees, recorded from the golden fixture: posted through /api/hits and /api/beacon, kept by the
// queue trigger, counted by the recount timer, read through the HTTP reads. It uses only the endpoints, the host's
// drain and run, and the clock, so it holds whatever the keeping and counting do inside. UPDATE_GOLDEN=1 writes the
// file instead of comparing with it. Each day's secret is made from the day (testSecret), so its tokens repeat.

const GOLDEN_FILE = join(__dirname, '..', 'golden', 'answers.json');
const clock = fixedClock(START);

/**
 * The fields an answer gained after the golden file was recorded (issue 20's day rollups, issue 34's filters, issue 55's
 * zone): every other field must be
 * exactly as recorded, and no field may go.
 */
const NEW_FIELDS = [
  // Issue 54: screen size, a dimension with its list in devices.
  'activity_30_days.devices.screens',
  'activity_7_days.devices.screens',
  'activity_30_days.entry_pages',
  // Issue 34: the filters a read was asked with (none here), echoed.
  'activity_30_days.filters',
  'activity_7_days.filters',
  'export_days.filters',
  'activity_30_days.events',
  'activity_30_days.goals',
  'activity_30_days.headline',
  'activity_30_days.pages',
  'activity_30_days.people_in_period',
  'activity_30_days.previous',
  'activity_30_days.referrers',
  'activity_30_days.rollups',
  'activity_7_days.entry_pages',
  'activity_7_days.events',
  'activity_7_days.goals',
  'activity_7_days.headline',
  'activity_7_days.pages',
  'activity_7_days.people_in_period',
  'activity_7_days.previous',
  'activity_7_days.referrers',
  'activity_7_days.rollups',
  // Issue 54: the pages people's visits ended on (time on site's other figures sit inside headline and pages, new already).
  'activity_30_days.exit_pages',
  'activity_7_days.exit_pages',
  'people.behind_since',
  'pulse.behind_since',
  'pulse.site',
  // Issue 55: the zone the site's days are in (UTC here), beside every figure as it was.
  ...['activity_30_days', 'activity_7_days', 'export_days', 'now', 'people', 'pulse'].map((answer) => `${answer}.time_zone`),
  ...['2026-10-20', '2026-10-21', '2026-10-22', '2026-10-23'].map((day) => `visitors_by_day.${day}.time_zone`),
  ...GOLDEN_SUBJECTS.map((subject) => `subject.${subject}.time_zone`),
  ...['2026-10-20', '2026-10-21', '2026-10-22', '2026-10-23'].map((day) => `visitors_by_day.${day}.next`),
];

describe('every answer users see, against the golden file, from the golden fixture through the local host', () => {
  let t: TestHost;
  let raw: Awaited<ReturnType<typeof readAll>> & { ingest: unknown[] };
  let answers: any;

  beforeAll(async () => {
    t = await startTestHost({ env: GOLDEN_ENV, overrides: { clock, newSecret: testSecret } });
    await containerOf(t.env);
    const ingest = await runGolden(t, clock);
    raw = { ingest, ...(await readAll(t)) };
    answers = normalised(raw, t.env.COSMOS_DATABASE!);
    if (process.env.UPDATE_GOLDEN === '1') {
      mkdirSync(dirname(GOLDEN_FILE), { recursive: true });
      writeFileSync(GOLDEN_FILE, `${JSON.stringify(answers, null, 2)}\n`);
    }
  });
  afterAll(() => t?.stop());

  it('took every post whole, and every read could reach the store', () => {
    for (const answer of raw.ingest as Array<{ status: number }>) expect(answer.status).toBe(202);
    expect(raw.activity_7_days.availability.available).toBe(true);
    for (const day of Object.values(raw.visitors_by_day) as any[]) expect(day.availability.available).toBe(true);
    expect(raw.subjects_by_name.continuation).toBeNull();
  });

  it('answers the figures worked out from the fixture alone', () => {
    const want = expectedFromFixture();
    expect(want).toMatchObject({ people_all_time: 13, scanners_left_out: 2, counted_from: D0, visits_all_time: 17 });
    const fixtureDays = (run: Array<{ day: string }>) => run.filter(({ day }) => day >= D0);
    expect(answers.people).toMatchObject({
      people_all_time: want.people_all_time,
      scanners_left_out: want.scanners_left_out,
      counted_from: want.counted_from,
    });
    expect(fixtureDays(answers.people.people_new_by_day)).toEqual(want.people_new_by_day);
    expect(answers.people.visits.all_time).toBe(want.visits_all_time);
    expect(fixtureDays(answers.people.visits.by_day)).toEqual(want.visits_by_day);
    expect(answers.pulse).toMatchObject({
      people_all_time: want.people_all_time,
      visits_all_time: want.visits_all_time,
      counted_from: want.counted_from,
    });
    expect(fixtureDays(answers.activity_7_days.by_day)).toEqual(want.by_day);
    expect(answers.activity_7_days.sources).toEqual(want.sources);
    for (const figures of want.subjects) expect(answers.subject[figures.subject], figures.subject).toMatchObject(figures);
    const statuses = (raw.ingest as Array<{ via: string; answer: { status?: string } }>)
      .filter((a) => a.answer.status)
      .map((a) => a.answer.status);
    expect(statuses.slice(0, 4)).toEqual(['new', 'returning', 'returning', 'new']); // jo three times, then kim
  });

  // With UPDATE_GOLDEN=1 the file was just written from these answers, so the same assertion checks what was written.
  it('answers exactly what the golden file recorded, and only adds the fields named as new', () => {
    const golden = JSON.parse(readFileSync(GOLDEN_FILE, 'utf8'));
    expect(recorded(answers, golden)).toEqual(golden);
    expect(added(answers, golden).sort()).toEqual([...NEW_FIELDS].sort());
    expect(golden.people.people_all_time).toBeGreaterThan(0);
    expect(golden.subjects_by_name.subjects.length).toBe(GOLDEN_SUBJECTS.length);
  });
});
