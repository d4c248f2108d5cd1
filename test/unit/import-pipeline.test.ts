import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/core/days';
import { readMessage } from '../../shared/core/message';
import { fold } from '../../shared/fold/fold';
import { TIMER_FOLD_BUDGET } from '../../shared/fold/budget';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { keeper } from '../support/keeper';
import { VISITORS_PK } from '../../shared/core/store/visitors';
import type { VisitorsSummary } from '../../shared/core/store/summary';
import type { VisitsSummary } from '../../shared/core/store/visits';
import type { DayRollup } from '../../shared/core/store/rollups';
import { bodiesOf, runImport, type ImportOptions } from '../../scripts/import/run';
import { queuedHit } from '../support/counting';
import { history, importLine, truthOf, writeRotated } from '../support/log-history';
import { importRig, INGEST_KEY, jsonRequest } from '../support/import-rig';
import { answerImport } from '../../host/http/ingest';
import { serverHitSchema } from '../../shared/contract/hits';
import { IMPORT_LIMITS } from '../../shared/contract/import';
import { cleanPath } from '../../shared/core/identity/paths';
import { hostingNetworks } from '../../adapters/files/networks';
import { cardOf as cardOnStore } from '../support/card';

const TODAY = '2026-10-23';
const NOW = `${TODAY}T12:00:00.000Z`;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'headcount-import-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const target = { url: 'http://app.example', key: INGEST_KEY, from: 'the test' };
const quiet = { out: () => undefined, sleep: async () => undefined };

function options(inputs: string[], more: Partial<ImportOptions> = {}): ImportOptions {
  return { inputs, format: 'auto', dryRun: false, target, networks: hostingNetworks(), ...more };
}

async function figures(rig: ReturnType<typeof importRig>) {
  const people = (await rig.store.visitorsSummary.read())?.doc ?? null;
  const visits = (await rig.store.visits.read())?.doc ?? null;
  return { people, visits };
}

/** The period report over the rig's store, read as the dashboard reads it: `card('days=7')` answers its status and body. */
const cardOf = (rig: ReturnType<typeof importRig>) => cardOnStore(rig.store, rig.clock);

const unmarked = (docs: Array<Record<string, unknown>>) =>
  docs
    .filter((doc) => !['fold-state', 'store-clock', 'fold-lease'].includes(String(doc.kind)))
    .map(({ folded_to: _f, ...rest }) => rest)
    .sort((a, b) => (`${String(a.pk)}|${String(a.id)}` < `${String(b.pk)}|${String(b.id)}` ? -1 : 1));

/** A shuffle of its own seed, as messages arrive at keep-imports: several at once, in no set order. */
function shuffled<T>(items: readonly T[], seed = 7): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i -= 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

// 140 days of logs imported and folded: seconds alone, a minute or more on a machine busy with other suites.
describe('a history imported from rotated logs, backfilled by the fold', { timeout: 300_000 }, () => {
  const requests = history({ today: TODAY, days: 140, people: 12 });
  const dir = tempDir();
  const { files, unreadable } = writeRotated(dir, requests);

  // Long: it folds many times over, and each fold also writes the retention cells (60 s was near its time on 2 shared cores).
  it('counts the people, the first day, the scanners and the visits by day of the log, and importing again changes nothing', async () => {
    const rig = importRig(NOW);
    const summary = await runImport(options(shuffled(files)), { ...quiet, fetch: rig.fetch });
    // Nothing was counted live yet: the import takes every day before today.
    expect(summary).toMatchObject({ until: addDays(TODAY, -1), liveFrom: TODAY, skipped: 0 });
    expect(summary.unreadable.count).toBe(2);
    expect(summary.unreadable.first.map((problem) => problem.where)).toEqual(unreadable);
    expect(summary.files.map((file) => file.name)).toEqual(files);
    expect(summary.ignored.asset + summary.ignored.method + summary.ignored.redirect).toBeGreaterThan(100);
    expect(summary.accepted).toBe(summary.sent);

    await rig.keepQueued((messages) => shuffled(messages, 11));
    await rig.foldAll();
    const truth = truthOf(requests, addDays(TODAY, -1));
    const { people, visits } = await figures(rig);
    expect(truth.people).toBeGreaterThan(9);
    expect(people).toMatchObject({
      people_all_time: truth.people,
      counted_from: truth.countedFrom,
      scanners_left_out: truth.scanners,
      people_new_by_day: truth.peopleByDay,
    });
    expect(visits?.by_day).toEqual(truth.visitsByDay);
    expect(visits?.from).toBe(truth.countedFrom);
    // The client's estimate, made without the key, agrees with the app here (no address is shared by a bot and a person).
    expect(summary.estimate).toEqual({
      people: truth.people,
      scanners: truth.scanners,
      visits: Object.values(truth.visitsByDay).reduce((a, b) => a + b, 0),
    });
    const oldDay = Object.keys(truth.requestsByDay)[0]!;
    expect(addDays(TODAY, -100) > oldDay).toBe(true);
    const rollup = rig.store.documents.read<DayRollup>(oldDay, 'day-rollup')?.doc;
    expect(rollup?.requests).toBe(truth.requestsByDay[oldDay]);

    const before = unmarked(rig.store.documents.query<Record<string, unknown>>(() => true));
    const lines: string[] = [];
    const again = await runImport(options(files), { ...quiet, out: (line) => lines.push(line), fetch: rig.fetch });
    expect(again.sent).toBe(summary.sent);
    // Every message was kept by the first import: none is queued again, and the command says so.
    expect(again).toMatchObject({ accepted: 0, alreadyKept: summary.sent });
    expect(rig.queued).toEqual([]);
    expect(lines.join('\n')).toContain(
      `(the app queued 0, had kept ${summary.sent.toLocaleString('en-US')} already (an earlier import of the same lines), did not count 0)`,
    );
    await rig.keepQueued();
    await rig.foldAll();
    expect(unmarked(rig.store.documents.query<Record<string, unknown>>(() => true))).toEqual(before);
  }, 180_000);

  it('makes every message of a batch from its lines: the same batch sent again is the same messages, ids and all', async () => {
    const rig = importRig(NOW);
    const lines = requests
      .slice(0, 300)
      .map((request) => ({ ...importLine(request), ...(request.referrer ? { referrer: request.referrer } : {}) }));
    const body = JSON.stringify({ hits: lines });
    expect((await answerImport(jsonRequest(body), rig.deps)).status).toBe(202);
    const first = rig.queued.splice(0);
    expect((await answerImport(jsonRequest(body), rig.deps)).status).toBe(202);
    const second = rig.queued.splice(0);
    expect(second).toEqual(first);
    const ids = first.map((text) => (readMessage(text) as { ok: true; message: { id: string } }).message.id);
    expect(new Set(ids).size).toBe(ids.length);
    // A different batch (one line fewer) is different messages.
    await answerImport(jsonRequest(JSON.stringify({ hits: lines.slice(1) })), rig.deps);
    const third = rig.queued.splice(0).map((text) => (readMessage(text) as { ok: true; message: { id: string } }).message.id);
    expect(third[0]).not.toBe(ids[0]);
  });

  it('folds the imported days a few at a time while the near days are folded every run, and ends at the same figures', async () => {
    const rig = importRig(NOW);
    await runImport(options(files), { ...quiet, fetch: rig.fetch });
    await rig.keepQueued();
    // A live visitor today, kept by keep-hits while the backlog of history waits to be folded.
    const live = keeper(rig.store, rig.clock);
    expect(
      (await live({ v: 1, id: '00000000-0000-4000-8000-000000000001', hits: [queuedHit(`${TODAY}T11:00:00.000Z`, { person: 'live' })] }))
        .ok,
    ).toBe(true);
    const small = { ...TIMER_FOLD_BUDGET, slicesARun: 3 };
    const outcome = await fold({ store: rig.store, clock: rig.clock, rules: scanRules(10, 60), lateDays: 7, budget: small });
    expect(outcome).toMatchObject({ ok: true, behind: expect.any(String) });
    // Fresh: today's visit is counted in the first run, whatever history is still to fold.
    expect((await figures(rig)).visits?.by_day[TODAY]).toBe(1);
    const runs = await rig.foldAll(small);
    expect(runs).toBeGreaterThan(1);
    const truth = truthOf(requests, addDays(TODAY, -1));
    const { people, visits } = await figures(rig);
    expect(people?.people_all_time).toBe(truth.people + 1);
    expect(people?.scanners_left_out).toBe(truth.scanners);
    expect(visits?.by_day).toEqual({ ...truth.visitsByDay, [TODAY]: 1 });
  });
});

describe('the first day counted live bounds an import', () => {
  it('takes only the days before it, keeps it where it was when the first import began, and --until names another last day', async () => {
    const rig = importRig(NOW);
    const live = keeper(rig.store, rig.clock);
    const liveDay = addDays(TODAY, -2);
    await live({ v: 1, id: '00000000-0000-4000-8000-000000000002', hits: [queuedHit(`${liveDay}T09:00:00.000Z`, { person: 'regular' })] });
    await rig.foldAll();
    const liveRollup = rig.store.documents.read<DayRollup>(liveDay, 'day-rollup')!.doc;

    const requests = history({ today: TODAY, days: 30, people: 10, seed: 5 });
    const { files } = writeRotated(tempDir(), requests);
    const summary = await runImport(options(files), { ...quiet, fetch: rig.fetch });
    expect(summary).toMatchObject({ liveFrom: liveDay, until: addDays(liveDay, -1) });
    const after = requests.filter((request) => request.at.toISOString().slice(0, 10) >= liveDay).length;
    expect(summary.skipped).toBe(after);
    await rig.keepQueued();
    await rig.foldAll();
    const truth = truthOf(requests, addDays(liveDay, -1));
    const { people, visits } = await figures(rig);
    expect(people?.counted_from).toBe(truth.countedFrom);
    expect(people?.people_all_time).toBe(truth.people + 1);
    expect(visits?.by_day).toEqual({ ...truth.visitsByDay, [liveDay]: 1 });
    // The day counted live is as it was: not one request of the log's lines of it was added.
    expect(rig.store.documents.read<DayRollup>(liveDay, 'day-rollup')!.doc.requests).toBe(liveRollup.requests);

    // counted_from moved back, and the first live day stays the one the ledger took.
    const window = await answerImport(jsonRequest('{"hits":[]}'), rig.deps);
    expect(window.body).toMatchObject({ live_from: liveDay, until: addDays(liveDay, -1), accepted: 0 });
    const asked = await answerImport(jsonRequest(JSON.stringify({ until: TODAY, hits: [] })), rig.deps);
    expect(asked.body).toMatchObject({ until: TODAY });
    const later = await answerImport(jsonRequest(JSON.stringify({ until: addDays(TODAY, 1), hits: [] })), rig.deps);
    expect(later.status).toBe(400);
  });
});

describe('what the endpoint counts of a log line', () => {
  const rig = importRig(NOW);
  const day = addDays(TODAY, -60);
  const hit = (more: Record<string, unknown>) => ({
    at: `${day}T10:00:00+02:00`,
    address: '73.15.40.1',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0',
    path: '/',
    ...more,
  });
  const post = (hits: unknown[], headers: Record<string, string> = {}) =>
    answerImport(jsonRequest(JSON.stringify({ hits }), headers), rig.deps);

  it('counts GET and HEAD that are not redirects, and leaves out the rest as /api/hits does (assets, admin paths)', async () => {
    const answer = await post([
      hit({ method: 'GET', status: 200 }),
      hit({ method: 'HEAD', status: 200 }),
      hit({ method: 'GET', status: 304 }),
      hit({ method: 'GET', status: 404, path: '/wp-login.php' }),
      hit({ method: 'POST', status: 200 }),
      hit({ method: 'GET', status: 301 }),
      hit({ method: 'GET', status: 308 }),
      hit({ path: '/assets/app.js' }),
      hit({ path: '/admin/users' }),
      hit({ at: `${TODAY}T09:00:00Z` }),
    ]);
    expect(answer).toMatchObject({ status: 202, body: { accepted: 4, ignored: 5, skipped: 1 } });
  });

  it('keeps a referrer from another site as its host, and none from the site itself (its host, or ALLOWED_ORIGINS)', async () => {
    rig.queued.splice(0);
    await post([
      hit({ referrer: 'https://www.linkedin.com/feed/', status: 200 }),
      hit({ referrer: 'https://example.com/blog/', status: 200 }),
      hit({ referrer: 'https://shop.example.org/', host: 'shop.example.org:443', status: 200 }),
    ]);
    const sources = rig.queued.flatMap((text) =>
      (readMessage(text) as { ok: true; message: { hits: Array<{ source: string | null }> } }).message.hits.map((one) => one.source),
    );
    expect(sources).toEqual(['www.linkedin.com', null, null]);
  });

  it('counts a log with no agent (the common format) by the address alone, not as bots', async () => {
    rig.queued.splice(0);
    await post([hit({ user_agent: undefined }), hit({ user_agent: null, address: '73.15.40.2' }), hit({ user_agent: '' })]);
    const hits = rig.queued.flatMap((text) => (readMessage(text) as { ok: true; message: { hits: Array<{ bot: boolean }> } }).message.hits);
    expect(hits.map((one) => one.bot)).toEqual([false, false, true]);
  });

  it('takes a line of any length as POST /api/hits takes it (the path as kept, cut to 512, with its campaign tags), never refusing its batch', async () => {
    rig.queued.splice(0);
    // A scanner's probe: a path of 5,000 characters, a campaign tag past the first 2,048, a long agent, referrer and host.
    const probe = `/${'a'.repeat(4_999)}?x=${'1'.repeat(100)}&utm_source=Probe`;
    const batch = [
      hit({ path: '/first' }),
      hit({
        address: '73.15.40.9',
        path: probe,
        user_agent: `Mozilla/5.0 ${'b'.repeat(3_000)}`,
        referrer: `https://news.example.org/${'c'.repeat(5_000)}`,
        host: `${'d'.repeat(300)}.example`,
        status: 200,
      }),
      hit({ path: '/last' }),
    ];
    const answer = await post(batch);
    expect(answer).toMatchObject({ status: 202, body: { accepted: 3, ignored: 0, skipped: 0 } });
    const queued = rig.queued.flatMap((text) => {
      const read = readMessage(text);
      return read.ok ? read.message.hits : [];
    });
    expect(queued.map((one) => one.path)).toEqual(['/first', `/${'a'.repeat(511)}`, '/last']);
    // The live edge's own rule gives the same path and the same campaign.
    const live = serverHitSchema.parse({ address: '73.15.40.9', path: probe });
    expect(queued[1]!.path).toBe(cleanPath(live.path));
    expect(queued[1]!.campaign).toEqual({ source: 'probe', medium: null, campaign: null });
    expect(queued[1]!.source).toBe('news.example.org');
    // Nothing of the long text travels on: no message holds more than the path as kept.
    expect(rig.queued.join('').length).toBeLessThan(4_000);
    // The same batch sent again is the same messages: taken whole, exactly once.
    const first = [...rig.queued];
    rig.queued.splice(0);
    expect((await post(batch)).status).toBe(202);
    expect(rig.queued).toEqual(first);
  });

  it('refuses a wrong key, a line it cannot read (naming it), a time ahead of now, and keeps nothing of such a batch', async () => {
    rig.queued.splice(0);
    expect((await post([hit({})], { 'x-ingest-key': 'wrong' })).status).toBe(401);
    const bad = await post([hit({}), hit({ address: 'example.com' })]);
    expect(bad).toMatchObject({ status: 400, body: { error: { message: 'hits.1.address: is not an IPv4 or IPv6 address' } } });
    expect((await post([hit({ at: `${addDays(TODAY, 1)}T00:00:00Z` })])).status).toBe(400);
    expect((await post([hit({ at: 'yesterday' })])).status).toBe(400);
    expect(rig.queued).toEqual([]);
    rig.setQueueDown(true);
    expect((await post([hit({})])).status).toBe(503);
    rig.setQueueDown(false);
  });
});

describe('a log of long lines (a scanner probing with paths of thousands of characters)', () => {
  const day = '2026-09-01';
  const lines = Array.from({ length: 600 }, (_, i) => {
    const second = String(i % 60).padStart(2, '0');
    const minute = String(Math.floor(i / 60)).padStart(2, '0');
    return `73.15.41.${i % 7} - - [01/Sep/2026:08:${minute}:${second} +0000] "GET /probe-${i}/${'a'.repeat(4_000)} HTTP/1.1" 404 153 "https://scan.example/${'r'.repeat(3_000)}" "Mozilla/5.0 ${'u'.repeat(1_500)}"`;
  });

  it('sends every line in bodies the endpoint takes, none refused for its size, and the same files again change nothing', async () => {
    const rig = importRig(NOW);
    const file = join(tempDir(), 'long.log');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const sizes: number[] = [];
    const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
      sizes.push(Buffer.byteLength(typeof init?.body === 'string' ? init.body : ''));
      return rig.fetch(url, init);
    }) as typeof globalThis.fetch;

    const summary = await runImport(options([file]), { ...quiet, fetch });
    expect(summary).toMatchObject({ sent: 600, accepted: 600, notCounted: 0, skipped: 0 });
    expect(summary.unreadable.count).toBe(0);
    expect(summary.days).toMatchObject({ first: day, last: day });
    // More than one body for the day's 600 lines (one of 500 would be over 1 MB), each within the endpoint's bound.
    expect(sizes.length).toBeGreaterThan(3);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(IMPORT_LIMITS.maxBodyBytes);
    const kept = rig.queued.flatMap((text) => {
      const read = readMessage(text);
      return read.ok ? read.message.hits : [];
    });
    expect(kept).toHaveLength(600);
    expect(kept.every((hit) => hit.path.length === 512 && hit.path.startsWith('/probe-'))).toBe(true);

    const first = rig.queued.splice(0);
    await runImport(options([file]), { ...quiet, fetch: rig.fetch });
    expect(rig.queued).toEqual(first);
  });

  it('cuts only a batch over the bound, in order, and leaves every other batch whole (the same messages as ever)', () => {
    const small = Array.from({ length: 3 }, (_, i) => ({ at: `${day}T08:00:0${i}Z`, address: '73.15.41.1', path: `/${i}` }));
    expect(bodiesOf(small, null)).toEqual([{ hits: small }]);
    expect(bodiesOf(small, '2026-09-30')).toEqual([{ until: '2026-09-30', hits: small }]);
    const most = Buffer.byteLength(JSON.stringify({ until: '2026-09-30', hits: small.slice(0, 2) }));
    const cut = bodiesOf(small, '2026-09-30', most);
    expect(cut).toEqual([
      { until: '2026-09-30', hits: small.slice(0, 2) },
      { until: '2026-09-30', hits: small.slice(2) },
    ]);
    for (const body of cut) expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(most);
  });
});

describe("Plausible's export", () => {
  const days = ['2026-03-01', '2026-03-02', '2026-03-03'];
  const csv = (rows: string[][]) =>
    rows.map((row) => row.map((cell) => (/[",]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',')).join('\n');
  const zip = () =>
    zipSync({
      'imported_visitors_20260301_20260303.csv': strToU8(
        csv([
          ['date', 'visitors', 'pageviews', 'bounces', 'visits', 'visit_duration'],
          [days[0]!, '12', '30', '5', '14', '900'],
          [days[1]!, '7', '11', '2', '8', '300'],
          [days[2]!, '20', '41', '9', '22', '1200'],
          ['03/04/2026', '1', '1', '0', '1', '1'],
        ]),
      ),
      'imported_pages_20260301_20260303.csv': strToU8(
        csv([
          ['date', 'hostname', 'page', 'visits', 'visitors', 'pageviews', 'exits', 'time_on_page'],
          [days[0]!, 'example.com', '/', '10', '9', '20', '5', '100'],
          [days[0]!, 'example.com', '/pricing?plan=pro&email=jane@example.com', '3', '3', '10', '1', '10'],
          [days[2]!, 'example.com', '/blog/a, b', '4', '4', '5', '1', '10'],
        ]),
      ),
      'imported_sources_20260301_20260303.csv': strToU8(
        csv([
          [
            'date',
            'source',
            'referrer',
            'utm_source',
            'utm_medium',
            'utm_campaign',
            'utm_content',
            'utm_term',
            'pageviews',
            'visitors',
            'visits',
            'visit_duration',
            'bounces',
          ],
          [days[0]!, 'Google', '', '', '', '', '', '', '10', '6', '6', '100', '1'],
          [days[0]!, '', '', '', '', '', '', '', '10', '6', '6', '100', '1'],
          [days[1]!, 'Hacker News', 'news.ycombinator.com', '', '', '', '', '', '10', 'x', '6', '100', '1'],
        ]),
      ),
      'imported_locations_20260301_20260303.csv': strToU8(
        csv([
          ['date', 'country', 'region', 'city', 'visitors', 'visits', 'visit_duration', 'bounces', 'pageviews'],
          [days[0]!, 'DE', 'DE-BE', '2950159', '8', '9', '100', '1', '20'],
          [days[0]!, 'FR', '', '0', '4', '5', '100', '1', '10'],
        ]),
      ),
      'imported_browsers_20260301_20260303.csv': strToU8(
        csv([
          ['date', 'browser', 'visitors'],
          [days[0]!, 'Firefox', '3'],
        ]),
      ),
    });

  it('sets the visits by day of the days before the count began, with pages, sources and countries, marked imported; people are not made up', async () => {
    const rig = importRig(NOW);
    const file = join(tempDir(), 'plausible-export.zip');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, zip());
    const summary = await runImport(options([file]), { ...quiet, fetch: rig.fetch });
    expect(summary.plausible).toEqual({ days: 3, skipped: 0, visitors: 39, rows: 10 });
    expect(summary.unreadable.count).toBe(2);
    expect(summary.unreadable.first).toEqual([
      { where: 'plausible-export.zip/imported_visitors_20260301_20260303.csv:5', why: 'its date cannot be read' },
      { where: 'plausible-export.zip/imported_sources_20260301_20260303.csv:4', why: 'its count cannot be read' },
    ]);
    expect(rig.queued).toEqual([]);
    await rig.foldAll();
    const { people, visits } = await figures(rig);
    expect(visits).toMatchObject({ from: days[0], all_time: 39, by_day: { [days[0]!]: 12, [days[1]!]: 7, [days[2]!]: 20 } });
    // People cannot be rebuilt from daily totals: none is counted, and counted_from stays empty.
    expect(people).toMatchObject({ people_all_time: 0, counted_from: null, scanners_left_out: 0 });
    const rollup = rig.store.documents.read<DayRollup>(days[0]!, 'day-rollup')!.doc;
    expect(rollup.imported).toEqual({
      source: 'plausible',
      visitors: 12,
      pageviews: 30,
      visits: 14,
      pages: { '/': 20, '/pricing': 10 },
      sources: { Google: 6, 'Direct / None': 6 },
      countries: { DE: 8, FR: 4 },
    });
    expect(rollup.visitor_days.people).toBe(0);
    expect(summary).toMatchObject({ accepted: 3, alreadyKept: 0 });
    const before = unmarked(rig.store.documents.query<Record<string, unknown>>(() => true));
    // The same export again: the app had each day's totals already, and says so.
    expect(await runImport(options([file]), { ...quiet, fetch: rig.fetch })).toMatchObject({ accepted: 0, alreadyKept: 3 });
    await rig.foldAll();
    expect(unmarked(rig.store.documents.query<Record<string, unknown>>(() => true))).toEqual(before);
    expect(JSON.stringify(before)).not.toContain('jane');
  });

  it('shows on the period report of a period with imported days, marked imported, summed over them, and on no other', async () => {
    const rig = importRig(NOW);
    const file = join(tempDir(), 'plausible-export.zip');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, zip());
    await runImport(options([file]), { ...quiet, fetch: rig.fetch });
    await rig.foldAll();
    const card = cardOf(rig);

    const march = await card(`from=${days[0]}&to=${days[2]}`);
    expect(march.status).toBe(200);
    expect(march.body.imported).toEqual({
      tools: ['plausible'],
      from: days[0],
      to: days[2],
      days: 3,
      visits: 12 + 7 + 20,
      page_loads: 30 + 11 + 41,
      pages: [
        { path: '/', page_loads: 20 },
        { path: '/pricing', page_loads: 10 },
        { path: '/blog/a, b', page_loads: 5 },
      ],
      sources: [
        { source: 'Direct / None', visitor_days: 6 },
        { source: 'Google', visitor_days: 6 },
      ],
      countries: [
        { country: 'DE', visitor_days: 8 },
        { country: 'FR', visitor_days: 4 },
      ],
    });
    // The visits by people hold the imported days; people are not made up from them.
    expect(march.body.headline).toMatchObject({ visits: 39, people: 0, people_new: 0 });
    expect(march.body.people_in_period.estimate).toBe(0);
    expect(march.body.pages).toEqual([]);
    expect(march.body.countries).toEqual([]);

    // A period that holds some of the imported days sums those alone.
    const part = await card(`from=${days[1]}&to=2026-03-09`);
    expect(part.body.imported).toMatchObject({ from: days[1], to: days[2], days: 2, visits: 27, page_loads: 52 });
    expect(part.body.imported.pages).toEqual([{ path: '/blog/a, b', page_loads: 5 }]);
    expect(part.body.imported.countries).toEqual([]);

    // A period with no imported day has no `imported` at all, so its answer is what it always was.
    const after = await card('from=2026-03-10&to=2026-03-12');
    expect(after.status).toBe(200);
    expect(after.body).not.toHaveProperty('imported');
    expect('imported' in (await card('days=30')).body).toBe(false);
    expect((await card('days=all')).body.imported).toMatchObject({ from: days[0], to: days[2], days: 3, visits: 39 });

    // Read from the rollups the card reads anyway: a period with imported days costs no more than one without does (less
    // here, since the days before the first imported one hold nothing and are not read).
    const before = rig.store.stats();
    await card(`from=${days[0]}&to=${days[2]}`);
    const between = rig.store.stats();
    await card('from=2026-03-10&to=2026-03-12');
    const end = rig.store.stats();
    const calls = (from: typeof before, to: typeof before) => to.reads + to.queries - from.reads - from.queries;
    expect(calls(before, between)).toBeLessThanOrEqual(calls(between, end));
    expect(calls(before, between)).toBeGreaterThan(0);
  });

  it("reads the export's CSV files on their own too", async () => {
    const rig = importRig(NOW);
    const dir = tempDir();
    const { writeFileSync } = await import('node:fs');
    const { unzipSync } = await import('fflate');
    const files = Object.entries(unzipSync(zip())).map(([name, bytes]) => {
      writeFileSync(join(dir, name), bytes);
      return join(dir, name);
    });
    const summary = await runImport(options(files, { dryRun: true, target: null, until: '2026-03-02' }), quiet);
    expect(summary.plausible).toEqual({ days: 2, skipped: 1, visitors: 19, rows: 10 });
    expect(rig.queued).toEqual([]);
  });

  it('leaves the live count alone', async () => {
    const rig = importRig(NOW);
    await keeper(
      rig.store,
      rig.clock,
    )({ v: 1, id: '00000000-0000-4000-8000-000000000003', hits: [queuedHit(`${TODAY}T08:00:00.000Z`, { person: 'p' })] });
    await rig.foldAll();
    const file = join(tempDir(), 'export.zip');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, zip());
    await runImport(options([file]), { ...quiet, fetch: rig.fetch });
    await rig.foldAll();
    const people = rig.store.documents.read<VisitorsSummary>(VISITORS_PK, 'visitors-summary')!.doc;
    const visits = rig.store.documents.read<VisitsSummary>(VISITORS_PK, 'visits-summary')!.doc;
    expect(people).toMatchObject({ people_all_time: 1, counted_from: TODAY });
    expect(visits).toMatchObject({ from: days[0], all_time: 40 });
  });
});

describe('hostile batches', () => {
  it('are answered 202 or refused in the envelope, never thrown, and a refused one queues nothing', async () => {
    const { default: fc } = await import('fast-check');
    const rig = importRig(NOW);
    const hitLike = fc.record(
      {
        at: fc.oneof(
          fc.date({ noInvalidDate: true }).map((at) => at.toISOString()),
          fc.string(),
        ),
        address: fc.oneof(fc.ipV4(), fc.ipV6(), fc.string()),
        user_agent: fc.oneof(fc.string(), fc.constant(null)),
        method: fc.oneof(fc.constantFrom('GET', 'HEAD', 'POST'), fc.string()),
        path: fc.string(),
        status: fc.oneof(fc.integer(), fc.double()),
        referrer: fc.oneof(fc.webUrl(), fc.string()),
        host: fc.string(),
        store: fc.string(),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record(
            { hits: fc.array(hitLike, { maxLength: 5 }), until: fc.option(fc.string(), { nil: undefined }) },
            { requiredKeys: ['hits'] },
          ),
          fc.record({ days: fc.array(fc.dictionary(fc.string(), fc.jsonValue()), { maxLength: 3 }) }),
          fc.jsonValue(),
        ),
        async (body) => {
          const before = rig.queued.length;
          const answer = await answerImport(jsonRequest(JSON.stringify(body) ?? 'null'), rig.deps);
          expect([202, 400]).toContain(answer.status);
          if (answer.status !== 202) expect(rig.queued.length).toBe(before);
        },
      ),
      { numRuns: 300 },
    );
  });
});
