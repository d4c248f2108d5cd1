import { expect } from 'vitest';
import type { fixedClock } from '../../shared/core/ports/clock';
import { D0, D1, D2, D3, GOLDEN_ROWS, GOLDEN_SUBJECTS, LATE_POSTED_AT, type GoldenRow } from './golden-fixture';
import { postsOf, sendGolden } from './golden-posts';
import type { TestHost } from './host';

// The golden fixture's run and reads, shared by the golden answers and the golden store: posted through the endpoints,
// kept by the queue trigger, counted by the timer, read through the HTTP reads.

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** Posts the fixture and runs the timer as it would run, answering each post's status and answer. */
export async function runGolden(t: TestHost, clock: ReturnType<typeof fixedClock>): Promise<unknown[]> {
  const recount = async (advanceMs: number) => {
    clock.advance(advanceMs);
    await t.fold();
  };
  const ingest: unknown[] = [];
  const postPhase = async (rows: readonly GoldenRow[]) => {
    for (const batch of postsOf(rows)) {
      const answer = await sendGolden({ url: t.host.url, env: t.env }, clock, batch);
      ingest.push({ via: batch[0]!.via, hits: batch.length, status: answer.status, answer: answer.json });
      await t.host.drain();
    }
  };
  await postPhase(GOLDEN_ROWS.filter((row) => !row.late));
  await recount(MINUTE);
  clock.set(LATE_POSTED_AT);
  await postPhase(GOLDEN_ROWS.filter((row) => row.late));
  // As the timer would: three runs a minute apart, one an hour on (the fold's sweep of older days), one a minute after.
  for (const advance of [MINUTE, MINUTE, MINUTE, HOUR, MINUTE]) await recount(advance);
  return ingest;
}

/** Every answer a user sees, read through the HTTP reads with the operator key; `query` is added to each read. */
export async function readAll(t: TestHost, query = '') {
  const get = async (path: string) => {
    const joined = query === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${query}`;
    const response = await fetch(`${t.host.url}${joined}`, { headers: { 'x-operator-key': t.env.OPERATOR_KEY! } });
    expect(response.status, joined).toBe(200);
    return await response.json();
  };
  const subject: Record<string, unknown> = {};
  for (const id of GOLDEN_SUBJECTS) subject[id] = await get(`/api/admin/subjects/${id}`);
  const visitors: Record<string, unknown> = {};
  for (const day of [D0, D1, D2, D3]) visitors[day] = await get(`/api/admin/activity/visitors?day=${day}`);
  return {
    pulse: await get('/api/pulse'),
    people: await get('/api/admin/visitors/people'),
    activity_7_days: await get('/api/admin/activity?days=7'),
    activity_30_days: await get('/api/admin/activity'),
    visitors_by_day: visitors,
    now: await get('/api/admin/now'),
    export_days: await get(`/api/admin/export?from=${D0}&to=${D3}`),
    subjects_by_last_scan: await get('/api/admin/subjects'),
    subjects_by_name: await get('/api/admin/subjects?sort=subject&order=asc&limit=200'),
    subject,
  };
}

/**
 * The answers as kept in the golden file. Left out, because a redesign of keeping and counting may change them
 * without changing any figure: the period report's `cost` (the store's operations since the process started) and
 * `availability` of the card and the day's table (the store's wording and retention; asserted available apart). The
 * test's own database name, which every `source` names, is written `<database>`. Keys are sorted, so the file is stable.
 */
export function normalised(answers: unknown, database: string): unknown {
  const text = JSON.stringify(answers, (key, value) => (key === 'cost' || key === 'availability' ? undefined : value));
  return sortedKeys(JSON.parse(text.split(database).join('<database>')));
}

export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

/** The answer with only the fields the recorded one has (objects field by field, arrays item by item). */
export function recorded(answer: unknown, golden: unknown): unknown {
  if (Array.isArray(golden) && Array.isArray(answer)) return answer.map((item, index) => recorded(item, golden[index]));
  if (golden === null || typeof golden !== 'object' || answer === null || typeof answer !== 'object') return answer;
  return Object.fromEntries(
    Object.keys(golden)
      .filter((key) => key in answer)
      .map((key) => [key, recorded((answer as Record<string, unknown>)[key], (golden as Record<string, unknown>)[key])]),
  );
}

/** The paths of the object fields the answer has and the recorded one does not. */
export function added(answer: unknown, golden: unknown, at = ''): string[] {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer) || golden === null || typeof golden !== 'object') return [];
  return Object.entries(answer).flatMap(([key, value]) =>
    key in golden ? added(value, (golden as Record<string, unknown>)[key], `${at}${key}.`) : [`${at}${key}`],
  );
}
