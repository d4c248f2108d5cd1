import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostingNetworks } from '../../adapters/files/networks';
import { runImport, type ImportSummary } from '../../scripts/import/run';
import { addDays } from '../../shared/core/days';
import { utcDay } from '../../shared/core/identity/tokens';
import type { DayRollup } from '../../shared/core/store/rollups';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { post } from '../support/http';
import { counted, history, truthOf, writeRotated, type LoggedRequest } from '../support/log-history';

/**
 * Issue 21's backfill on the local stack, end to end: a site's nginx logs of four months, rotated (the oldest gzipped,
 * one written in another time zone), imported by the command through the local host into a stack whose live count
 * began two days ago; keep-imports keeps them from their own queue, the fold folds them. The figures are
 * then the log's truth, the days counted live are as they were, a live count running all along stays exact, and the
 * same import again changes no figure.
 */
const TODAY = utcDay(new Date());
const LIVE_DAY = addDays(TODAY, -2);
const requests = history({ today: TODAY, days: 125, people: 24, seed: 2126 });
const dayOf = (request: LoggedRequest) => request.at.toISOString().slice(0, 10);

/** What the site's server posts to /api/hits as it serves a request. */
const asHit = (request: LoggedRequest) => ({
  at: request.at.toISOString(),
  address: request.address,
  user_agent: request.agent,
  path: request.path,
  referrer: request.referrer,
  page_load: request.method === 'GET' && request.status < 400,
});

/** Live visitors today: one new, and one of the log's people coming back. */
function todaysVisitors(n: number): LoggedRequest[] {
  const regular = requests.find((request) => request.role === 'person' && request.address === '86.128.77.7')!;
  const at = new Date(Date.now() - 60_000);
  return [
    { ...regular, at, path: '/', method: 'GET', status: 200, referrer: null },
    {
      at,
      address: `73.15.250.${n}`,
      agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      method: 'GET',
      path: '/',
      status: 200,
      referrer: null,
      role: 'person',
      identity: `73.15.250.${n}|safari-mac`,
    },
  ];
}

describe('a site’s history imported from its logs and backfilled by the timer (issue 21)', () => {
  let a: TestHost;
  let b: TestHost | undefined;
  let dir: string;
  let files: string[];
  let unreadable: string[];
  const live: LoggedRequest[] = [];

  const sendLive = async (host: TestHost, batch: LoggedRequest[]) => {
    const answer = await post(`${host.host.url}/api/hits`, { hits: batch.map(asHit) }, { 'x-ingest-key': host.env.INGEST_KEY! });
    expect(answer.status).toBe(202);
    live.push(...batch);
  };
  const read = async (host: TestHost) => ({
    people: (await host.root.store.visitorsSummary.read())?.doc ?? null,
    visits: (await host.root.store.visits.read())?.doc ?? null,
    rollup: async (day: string) => (await host.root.store.rollups.read(day))?.doc ?? null,
  });
  const foldUntilCaughtUp = async (host: TestHost) => {
    for (let run = 0; run < 20; run += 1) {
      await host.fold();
      const state = await host.root.store.foldState.read();
      if (state?.doc.behind === null && state.doc.imported.length === 0) return;
    }
    throw new Error('the fold did not catch up in 20 runs');
  };
  const importLogs = (host: TestHost): Promise<ImportSummary> =>
    runImport(
      {
        inputs: [files[2]!, files[0]!, files[3]!, files[1]!],
        format: 'auto',
        dryRun: false,
        target: { url: host.host.url, key: host.env.INGEST_KEY!, from: 'the test' },
        networks: hostingNetworks(),
      },
      { out: () => undefined },
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'headcount-history-'));
    ({ files, unreadable } = writeRotated(dir, requests));
    a = await startTestHost();
    await containerOf(a.env);
    // Live counting began two days ago: the site's server posted each request of that day as it served it.
    await sendLive(
      a,
      requests.filter((request) => dayOf(request) === LIVE_DAY && counted(request)),
    );
    await a.host.drain();
    await a.fold();
  }, 120_000);
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports the rotated files oldest first, skips the days counted live, reports what it could not read, and queues the rest apart from live hits', async () => {
    const before = await read(a);
    expect(before.people?.counted_from).toBe(LIVE_DAY);
    // keep-imports is held, so the import waits on its own queue while live hits go on being kept and counted.
    await a.host.listeners().get('keep-imports')!.stop();
    const [summary] = await Promise.all([importLogs(a), sendLive(a, todaysVisitors(1))]);
    expect(summary.files.map((file) => file.name)).toEqual(files);
    expect(summary).toMatchObject({ liveFrom: LIVE_DAY, until: addDays(LIVE_DAY, -1) });
    expect(summary.skipped).toBe(requests.filter((request) => dayOf(request) >= LIVE_DAY).length);
    expect(summary.unreadable.count).toBe(2);
    expect(summary.unreadable.first.map((problem) => problem.where)).toEqual(unreadable);
    expect(summary.accepted).toBe(summary.sent);
    expect(summary.sent).toBeGreaterThan(1_000);

    // Fresh: one run of the timer counts the live visitors of today, the history still waiting on its queue.
    await a.host.listeners().get('keep-hits')!.drain();
    await a.fold();
    const truthSoFar = truthOf(live, TODAY);
    const now = await read(a);
    expect(now.people).toMatchObject({ people_all_time: truthSoFar.people, counted_from: LIVE_DAY });
    expect(now.visits?.by_day).toEqual(truthSoFar.visitsByDay);
  }, 120_000);

  it('backfills: people all time, counted_from, scanners left out and the visits by day are the log’s truth, and the live days are as they were', async () => {
    const liveDayBefore = await (await read(a)).rollup(LIVE_DAY);
    // Another host keeps the imports, as a second instance would, while the live count goes on.
    b = await startTestHost({ env: a.env });
    await sendLive(b, todaysVisitors(2));
    await b.host.listeners().get('keep-imports')!.drain(120_000);
    await b.host.listeners().get('keep-hits')!.drain();
    await foldUntilCaughtUp(b);

    const imported = requests.filter((request) => dayOf(request) < LIVE_DAY);
    const truth = truthOf([...imported, ...live], TODAY);
    const after = await read(b);
    expect(truth.countedFrom! < addDays(TODAY, -100)).toBe(true);
    expect(after.people).toMatchObject({
      people_all_time: truth.people,
      counted_from: truth.countedFrom,
      scanners_left_out: truth.scanners,
      people_new_by_day: truth.peopleByDay,
    });
    expect(truth.scanners).toBeGreaterThanOrEqual(6);
    expect(after.visits?.by_day).toEqual(truth.visitsByDay);
    expect(after.visits?.from).toBe(truth.countedFrom);
    // Not one request of the log's lines of a day counted live was added to it.
    const liveDayAfter = (await after.rollup(LIVE_DAY)) as DayRollup;
    expect(liveDayAfter.requests).toBe(liveDayBefore!.requests);
    expect(liveDayAfter.visitor_days).toEqual(liveDayBefore!.visitor_days);
    // An old day's rollup holds its requests, as the period report reads them.
    const oldDay = Object.keys(truth.requestsByDay)[3]!;
    expect((await after.rollup(oldDay))?.requests).toBe(truth.requestsByDay[oldDay]);
    // The pulse reads the same.
    const pulse = await (await fetch(`${b.host.url}/api/pulse`)).json();
    expect(pulse).toMatchObject({ people_all_time: truth.people, counted_from: truth.countedFrom, visits_from: truth.countedFrom });
  }, 240_000);

  it('imported again, it changes no figure', async () => {
    const before = await read(b!);
    const again = await importLogs(b!);
    // Every message was kept by the first import: the app queues none again, and says so.
    expect(again).toMatchObject({ accepted: 0, alreadyKept: again.sent });
    await b!.host.listeners().get('keep-imports')!.drain(120_000);
    await foldUntilCaughtUp(b!);
    const after = await read(b!);
    expect(after.people).toEqual(before.people);
    expect(after.visits).toEqual(before.visits);
    const days = Object.keys(before.visits!.by_day).slice(0, 5);
    for (const day of days) expect({ ...(await after.rollup(day)), folded_to: 0 }).toEqual({ ...(await before.rollup(day)), folded_to: 0 });
  }, 240_000);
});
