import { registerOf } from '../../shared/core/sketch';
import { firstOffsets, type VisitorDay } from '../../shared/core/store/activity';
import { recountDay } from '../support/rollups';
import { afterEach, describe, expect, it } from 'vitest';
import { CosmosDocuments } from '../../adapters/cosmos/documents';
import { encodeMessage } from '../../shared/core/message';
import { agentFamily, isBotAgent } from '../../shared/core/identity/agent';
import { deviceOf } from '../../shared/core/identity/device';
import { dailyToken, personHash } from '../../shared/core/identity/tokens';
import { derivePersonId } from '../../shared/core/identity/person-id';
import { keptNetwork } from '../../shared/core/identity/network';
import { testSecret } from '../support/day-secrets';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { queued } from '../support/hits';
import { everything, messageOf, unmarked } from './keep-helpers';

const CHROME_120 = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const CHROME_121 = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.6167.85 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:131.0) Gecko/20100101 Firefox/131.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const EDGE =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91';

/** Who sends the fixture's hits: the person each is (two agents of one browser are one person), or the site itself. */
const visitors = {
  alice: { address: '203.0.113.7', agent: CHROME_120, person: 'alice' },
  aliceUpdated: { address: '203.0.113.7', agent: CHROME_121, person: 'alice' },
  bob: { address: '198.51.100.20', agent: FIREFOX, person: 'bob' },
  curl: { address: '192.0.2.50', agent: 'curl/8.4.0', person: 'curl' },
  turned: { address: '192.0.2.77', agent: IPHONE, person: 'turned' },
  carol: { address: '2001:db8::1', agent: EDGE, person: 'carol' },
  site: { address: '10.20.0.5', agent: FIREFOX, person: null },
} as const;

type Who = keyof typeof visitors;
/** One request of the fixture, with what the test expects of it: counted (not an asset) and looking like a bot. */
interface Row {
  who: Who;
  at: string;
  path: string;
  kept?: string;
  store?: string;
  referrer?: string;
  pageLoad?: boolean;
  asset?: boolean;
  bot?: boolean;
}

const D1 = '2026-10-21';
const D2 = '2026-10-22';
const D3 = '2026-10-23';
const fixture: Row[] = [
  { who: 'alice', at: `${D1}T08:00:00Z`, path: '/', referrer: 'https://github.com/someone/repo', pageLoad: true },
  { who: 'alice', at: `${D1}T08:00:01Z`, path: '/app.js', asset: true },
  { who: 'alice', at: `${D1}T08:05:00Z`, path: '/about?x=1', kept: '/about' },
  { who: 'alice', at: `${D1}T09:15:00Z`, path: '/trees/42' },
  { who: 'bob', at: `${D1}T08:30:00Z`, path: '/', referrer: 'https://github.com/x', pageLoad: false },
  { who: 'bob', at: `${D1}T08:31:00Z`, path: '/style.css', asset: true },
  { who: 'bob', at: `${D1}T08:32:00Z`, path: '/api/bids', store: 'shop' },
  { who: 'bob', at: `${D1}T23:59:59Z`, path: '/late' },
  { who: 'curl', at: `${D1}T03:00:00Z`, path: '/wp-login.php', bot: true },
  { who: 'curl', at: `${D1}T03:00:01Z`, path: '/.env', bot: true },
  { who: 'curl', at: `${D1}T03:00:02Z`, path: '/', bot: true },
  { who: 'turned', at: `${D1}T04:00:00Z`, path: '/wp-login.php', bot: true },
  { who: 'turned', at: `${D1}T04:00:01Z`, path: '/xmlrpc.php', bot: true },
  { who: 'alice', at: `${D2}T10:00:00Z`, path: '/', store: 'shop' },
  { who: 'alice', at: `${D2}T10:01:00Z`, path: '/cart', store: 'shop' },
  { who: 'alice', at: `${D2}T10:02:00Z`, path: '/trees/42' },
  { who: 'site', at: `${D2}T00:00:00Z`, path: '/health' },
  { who: 'site', at: `${D2}T00:05:00Z`, path: '/health' },
  { who: 'site', at: `${D2}T01:00:00Z`, path: '/' },
  { who: 'turned', at: `${D2}T12:00:00Z`, path: '/about', referrer: 'https://www.LinkedIn.com/feed/', pageLoad: true },
  { who: 'turned', at: `${D2}T12:00:01Z`, path: '/logo.png', asset: true },
  { who: 'turned', at: `${D2}T12:01:00Z`, path: '/.git/config', bot: true },
  { who: 'curl', at: `${D2}T03:00:00Z`, path: '/robots.txt', asset: true },
  { who: 'curl', at: `${D2}T03:00:01Z`, path: '/xmlrpc.php', bot: true },
  { who: 'aliceUpdated', at: `${D3}T07:00:00Z`, path: '/' },
  { who: 'aliceUpdated', at: `${D3}T07:30:00Z`, path: '/trees/43', store: 'shop' },
  { who: 'carol', at: `${D3}T07:10:00Z`, path: '/', referrer: 'https://www.linkedin.com/in/x', pageLoad: true },
  { who: 'carol', at: `${D3}T07:11:00Z`, path: '/trees/42' },
  { who: 'carol', at: `${D3}T07:12:00Z`, path: '/trees/42' },
  { who: 'carol', at: `${D3}T07:40:00Z`, path: '/about', referrer: 'https://news.ycombinator.com/', pageLoad: true },
  { who: 'carol', at: `${D3}T08:00:00Z`, path: '/favicon.ico', asset: true },
  { who: 'bob', at: `${D3}T19:00:00Z`, path: '/', store: 'shop' },
  { who: 'bob', at: `${D3}T19:00:30Z`, path: '/', store: 'shop' },
  { who: 'site', at: `${D3}T19:10:00Z`, path: '/health' },
  { who: 'curl', at: `${D3}T19:20:00Z`, path: '/.env', bot: true },
  { who: 'alice', at: `${D3}T19:30:00Z`, path: '/about' },
  { who: 'turned', at: `${D3}T19:40:00Z`, path: '/' },
  { who: 'carol', at: `${D3}T19:50:00Z`, path: '/trees/44', store: 'shop' },
  { who: 'bob', at: `${D3}T19:55:00Z`, path: '/wp-login.php', bot: true },
  { who: 'alice', at: `${D3}T19:56:00Z`, path: '/contact' },
];

const NOW = `${D3}T20:00:00Z`;
const day = (at: string) => at.slice(0, 10);
const add = (counts: Record<string, number>, name: string) => ({ ...counts, [name]: (counts[name] ?? 0) + 1 });

/** Each path's first request of the day. */
const firstAt = (first: Record<string, string>, name: string, at: string) => ({
  ...first,
  [name]: first[name] !== undefined && first[name] < at ? first[name] : at,
});

/** The documents the fixture should leave, worked out from the rows alone. */
/** A visitor-day's page loads by path and its entry and exit pages, with a row's page load added. */
function pagesOf(vd: Record<string, unknown>, row: { pageLoad?: boolean; kept: string }, at: string) {
  if (!row.pageLoad) return {};
  const entryAt = vd.entry_at as string | undefined;
  const exitAt = vd.exit_at as string | undefined;
  const first = entryAt === undefined || at < entryAt;
  const last = exitAt === undefined || at > exitAt || (at === exitAt && row.kept > (vd.exit as string));
  return {
    page_paths: add((vd.page_paths as Record<string, number> | undefined) ?? {}, row.kept),
    ...(first ? { entry: row.kept, entry_at: at } : {}),
    ...(last ? { exit: row.kept, exit_at: at } : {}),
  };
}

/** A sparse sketch with a person hash's register set. */
function registered(sketch: Record<string, number>, hash: string): Record<string, number> {
  const [register, rank] = registerOf(hash);
  return (sketch[register] ?? 0) >= rank ? sketch : { ...sketch, [register]: rank };
}

function expectedDocuments(hashKey: string) {
  const rows = fixture
    .filter((row) => !row.asset)
    .map((row) => ({ ...row, ...visitors[row.who], store: row.store ?? 'site', kept: row.kept ?? row.path, bot: row.bot ?? false }));
  const records = new Map<string, { hash: string; days: Map<string, boolean[]> }>();
  for (const row of rows) {
    if (row.person === null) continue;
    const record = records.get(row.person) ?? { hash: personHash(hashKey, row.address, agentFamily(row.agent)), days: new Map() };
    record.days.set(day(row.at), [...(record.days.get(day(row.at)) ?? []), row.bot]);
    records.set(row.person, record);
  }
  const recordDocs = [...records.values()].map(({ hash, days }) => {
    const sorted = [...days.keys()].sort();
    const personDays = sorted.filter((d) => days.get(d)!.some((bot) => !bot));
    const who = personDays.length > 0 ? 'people' : 'scanners';
    return {
      id: hash,
      pk: 'visitors',
      kind: 'visitor-record',
      first_seen: sorted[0]!,
      last_seen: sorted.at(-1),
      days_seen: sorted.length,
      recent_days: sorted,
      who,
      counted_on: personDays[0] ?? null,
      ttl: who === 'people' ? -1 : 7_776_000,
    };
  });
  const people = recordDocs.filter((doc) => doc.who === 'people');
  const byDay: Record<string, number> = {};
  for (const doc of people) byDay[doc.counted_on!] = (byDay[doc.counted_on!] ?? 0) + 1;
  const scannersByDay: Record<string, number> = {};
  for (const doc of recordDocs.filter((one) => one.who === 'scanners'))
    scannersByDay[doc.first_seen] = (scannersByDay[doc.first_seen] ?? 0) + 1;
  const summary = {
    id: 'visitors-summary',
    pk: 'visitors',
    kind: 'visitors-summary',
    people_all_time: people.length,
    scanners_left_out: recordDocs.length - people.length,
    counted_from: people.map((doc) => doc.counted_on!).sort()[0],
    people_new_by_day: byDay,
    scanners_by_day: scannersByDay,
  };
  type Counts = Record<string, number>;
  const visitorDays = new Map<
    string,
    Record<string, unknown> & {
      requests: number;
      bots: number;
      bots_by: Counts;
      self: number;
      paths: Counts;
      sources: Counts;
      page_loads: number;
      first_seen: string;
      last_seen: string;
      browsers: Counts;
      systems: Counts;
      devices: Counts;
    }
  >();
  const hours = new Map<
    string,
    Record<string, unknown> & { requests: number; bots: number; self: number; paths: Record<string, number> }
  >();
  for (const row of rows) {
    const at = new Date(row.at).toISOString();
    const token = dailyToken(testSecret(day(at)), row.address, agentFamily(row.agent));
    const vd = visitorDays.get(`${day(at)} ${row.store} ${token}`) ?? {
      id: `visitor-day:${row.store}:${token}`,
      pk: day(at),
      kind: 'visitor-day',
      store: row.store,
      day: day(at),
      token,
      network: keptNetwork(row.address),
      first_seen: at,
      last_seen: at,
      requests: 0,
      bots: 0,
      bots_by: {},
      self: 0,
      paths: {},
      sources: {},
      page_loads: 0,
      country: 'XX',
      browsers: {},
      systems: {},
      devices: {},
      people_sketch: {},
      first_at: {},
    };
    const self = row.person === null ? 1 : 0;
    // Every address of the fixture is a documentation or private one, which no country holds.
    const device = deviceOf(agentFamily(row.agent));
    visitorDays.set(`${day(at)} ${row.store} ${token}`, {
      ...vd,
      first_seen: at < vd.first_seen ? at : vd.first_seen,
      last_seen: at > vd.last_seen ? at : vd.last_seen,
      requests: vd.requests + 1,
      bots: vd.bots + (row.bot ? 1 : 0),
      // The fixture's bots name themselves by their agent (curl) or probe a path; none comes from a hosting network.
      bots_by: row.bot ? add(vd.bots_by, isBotAgent(row.agent) ? 'agent' : 'path') : vd.bots_by,
      self: vd.self + self,
      paths: add(vd.paths, row.kept),
      first_at: firstAt(vd.first_at as Record<string, string>, row.kept, at),
      sources: row.pageLoad && row.referrer ? add(vd.sources, new URL(row.referrer).hostname.toLowerCase()) : vd.sources,
      page_loads: vd.page_loads + (row.pageLoad ? 1 : 0),
      browsers: add(vd.browsers, device.browser),
      systems: add(vd.systems, device.system),
      devices: add(vd.devices, device.device),
      ...pagesOf(vd, row, at),
      people_sketch:
        row.person !== null && !row.bot
          ? registered(vd.people_sketch as Counts, personHash(hashKey, row.address, agentFamily(row.agent)))
          : vd.people_sketch,
    });
    const hour = at.slice(11, 13);
    const h = hours.get(`${day(at)} ${row.store} ${hour}`) ?? {
      id: `hour:${row.store}:${hour}`,
      pk: day(at),
      kind: 'activity-hour',
      store: row.store,
      day: day(at),
      hour: `${day(at)}T${hour}:00:00.000Z`,
      requests: 0,
      bots: 0,
      self: 0,
      paths: {},
    };
    hours.set(`${day(at)} ${row.store} ${hour}`, {
      ...h,
      requests: h.requests + 1,
      bots: h.bots + (row.bot ? 1 : 0),
      self: h.self + self,
      paths: add(h.paths, row.kept),
    });
  }
  // A daily token's visit is carried by its first row by id, when the token reads as a person across its stores.
  const rowsOf = (token: unknown, on: unknown) =>
    [...visitorDays.values()].filter((row) => row.token === token && row.day === on).sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1));
  const whoOf = (row: { self: number; requests: number; bots: number }) => (row.self > 0 ? 2 : row.bots >= row.requests ? 0 : 1);
  const marked = [...visitorDays.values()].map((row) => {
    const group = rowsOf(row.token, row.day);
    const first_at = firstOffsets(String(row.first_seen), row.first_at as Record<string, string>);
    return { ...row, first_at, visit: Math.max(...group.map(whoOf)) === 1 && group[0]!.id === row.id };
  });
  const visits: Record<string, number> = {};
  for (const row of marked.filter((one) => one.visit) as { day?: unknown }[]) visits[String(row.day)] = (visits[String(row.day)] ?? 0) + 1;
  const visitsSummary = {
    id: 'visits-summary',
    pk: 'visitors',
    kind: 'visits-summary',
    all_time: Object.values(visits).reduce((a, b) => a + b, 0),
    from: Object.keys(visits).sort()[0],
    by_day: visits,
  };
  // Each day's rollup: what its visitor-days add up to (test/support/rollups.ts recounts it the one way).
  const rollups = [...new Set(marked.map((row) => String((row as { day?: unknown }).day)))].map((on) => {
    const { folded_to: _folded, returning_sketch: _back, ...rollup } = recountDay(on, marked as unknown as VisitorDay[]);
    return rollup;
  });
  return [...recordDocs, summary, visitsSummary, ...marked, ...hours.values(), ...rollups] as { pk: string; id: string; kind: string }[];
}

const byKey = (a: { pk: string; id: string }, b: { pk: string; id: string }) =>
  a.pk === b.pk ? (a.id < b.id ? -1 : 1) : a.pk < b.pk ? -1 : 1;

/** The fold's first run moves every record to its person id (docs/design.md, Identity). */
async function movedToPersonIds(docs: { pk: string; id: string; kind: string }[], cost: number) {
  const moved = await Promise.all(
    docs.map(async (doc) => (doc.kind === 'visitor-record' ? { ...doc, id: await derivePersonId(doc.id, cost), derived: true } : doc)),
  );
  return moved.sort(byKey);
}

async function hostWithCosmos(options: Parameters<typeof startTestHost>[0] = {}) {
  const t = await startTestHost({ ...options, overrides: { clock: fixedClock(NOW), newSecret: testSecret, ...options.overrides } });
  return { t, documents: new CosmosDocuments(await containerOf(t.env)) };
}

async function post(t: TestHost, rows: Row[]) {
  const hits = rows.map((row) => ({
    at: row.at,
    address: visitors[row.who].address,
    user_agent: visitors[row.who].agent,
    path: row.path,
    store: row.store,
    referrer: row.referrer,
    page_load: row.pageLoad,
  }));
  const response = await fetch(`${t.host.url}/api/hits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-ingest-key': t.env.INGEST_KEY! },
    body: JSON.stringify({ hits }),
  });
  expect(response.status).toBe(202);
}

describe('keep-hits through the local host, on Azurite and the local Cosmos server', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('keeps a three-day fixture as documents that equal what the fixture says, each hit once', async () => {
    const { t, documents } = await hostWithCosmos({ queueSettings: { visibilityTimeout: 200 } });
    stop = t.stop;
    expect(fixture).toHaveLength(40);
    // Posted in requests of five, so the host runs several messages at once and the days arrive out of order.
    for (let start = 0; start < fixture.length; start += 5) await post(t, fixture.slice(start, start + 5));
    await t.host.drain();
    await t.fold();

    const kept = await everything(documents);
    // The days a record moved away from, and when its counts last changed, depend on the order its messages came in.
    // Month rollups and filter cells are sums of what is here, held to their recount by filter-property.test.ts. Who was
    // new or returning, first touches and the retention cells follow the order the messages came in too: returning-property.test.ts
    // holds them to a recount, with messages in the order they were sent. The configuration is seeded from the settings
    // (test/integration/config.test.ts).
    const counted = unmarked(kept)
      .filter(
        (doc) =>
          !['fact', 'period-rollup', 'cohort-cell', 'cohort-figures', 'day-secret', 'person-moved', 'migration', 'config'].includes(
            doc.kind as string,
          ),
      )
      .map(
        ({
          moved_days: _moved,
          counts_changed_at: _changed,
          first_touch: _touch,
          new_sketch: _new,
          returning_sketch: _back,
          first_days: _firsts,
          ...doc
        }) => doc,
      );
    const cost = Number(t.env.PERSON_HASH_COST);
    expect([...counted].sort(byKey)).toEqual(await movedToPersonIds(expectedDocuments(t.env.HASH_KEY!), cost));
    // A marker stays at each old id, naming where its record went.
    const markers = kept.filter((doc) => doc.kind === 'person-moved') as unknown as { id: string; to: string }[];
    expect(markers).toHaveLength(counted.filter((doc) => doc.kind === 'visitor-record').length);
    for (const marker of markers) expect(marker.to).toBe(await derivePersonId(marker.id, cost));
    // The days kept before the day's secrets: none here keeps a network, so their migration is done at its first run;
    // and every closed day has its file in the current layout.
    const migrations = kept.filter((doc) => doc.kind === 'migration').map((doc) => [doc.name, doc.done_at !== null]);
    expect(migrations.sort()).toEqual([
      ['day-files-v2', true],
      ['old-days-rekeyed', true],
      ['person-ids', true],
    ]);
    // Each day's tokens were made with that day's secret, kept once for every instance.
    const secrets = kept.filter((doc) => doc.kind === 'day-secret').map((doc) => [doc.day, doc.secret]);
    expect(secrets.sort()).toEqual([D1, D2, D3].map((day) => [day, testSecret(day)]));
    expect(kept.filter((doc) => doc.kind === 'fact').reduce((sum, doc) => sum + (doc.hits as number), 0)).toBe(
      fixture.filter((row) => !row.asset).length,
    );
    expect((await t.poison.peekMessages()).peekedMessageItems).toHaveLength(0);
    // Nothing kept names anyone: no address, no agent, no query string.
    const text = JSON.stringify(kept);
    for (const { address, agent } of Object.values(visitors)) {
      expect(text).not.toContain(address);
      expect(text).not.toContain(agent);
    }
    expect(text).not.toContain('?x=1');
  });

  it('the same message delivered twice is kept once', async () => {
    const { t, documents } = await hostWithCosmos();
    stop = t.stop;
    const message = encodeMessage(
      messageOf([queued('dup', '2026-10-23T10:00:00.000Z'), queued('dup', '2026-10-23T10:01:00.000Z', { path: '/b' })]),
    );
    await t.queue.sendMessage(message);
    await t.host.drain();
    await t.queue.sendMessage(message);
    await t.host.drain();
    await t.fold();
    const kept = unmarked(await everything(documents));
    expect(kept.find((doc) => doc.kind === 'activity-hour')).toMatchObject({ requests: 2, paths: { '/': 1, '/b': 1 } });
    expect(kept.find((doc) => doc.kind === 'visitor-day')).toMatchObject({ requests: 2 });
    expect(kept.find((doc) => doc.kind === 'visitors-summary')).toMatchObject({ people_all_time: 1 });
    expect(t.host.listeners().get('keep-hits')?.stats()).toEqual({ invocations: 2, failures: 0, poisoned: 0 });
  });

  it('a malformed message reaches hits-poison after the dequeue count, with its reason logged, while the rest flows', async () => {
    const logger = memoryLogger();
    const { t, documents } = await hostWithCosmos({ queueSettings: { visibilityTimeout: 100, maxDequeueCount: 3 }, overrides: { logger } });
    stop = t.stop;
    await t.queue.sendMessage(Buffer.from('{"v":1,"id":"not-a-uuid","hits":[]}').toString('base64'));
    await t.queue.sendMessage(Buffer.from('not json at all').toString('base64'));
    await post(t, fixture.slice(0, 4));
    await t.host.drain();
    await post(t, fixture.slice(4, 8));
    await t.host.drain();
    await t.fold();

    const poisoned = (await t.poison.peekMessages({ numberOfMessages: 32 })).peekedMessageItems.map((item) =>
      Buffer.from(item.messageText, 'base64').toString('utf8'),
    );
    expect(poisoned.sort()).toEqual(['not json at all', '{"v":1,"id":"not-a-uuid","hits":[]}']);
    expect(t.host.listeners().get('keep-hits')?.stats()).toMatchObject({ failures: 6, poisoned: 2 });
    const unreadable = logger.lines
      .map((line) => JSON.parse(line) as { message: string; reason?: string })
      .filter((line) => line.message.startsWith('a hits message cannot be read'));
    expect(unreadable.map((line) => line.reason).sort()).toEqual(
      [...Array(3).fill('id: Invalid UUID'), ...Array(3).fill('the message is not JSON')].sort(),
    );
    const hours = unmarked(await everything(documents)).filter((doc) => doc.kind === 'activity-hour');
    expect(hours.reduce((sum, doc) => sum + (doc.requests as number), 0)).toBe(6);
    expect(logger.lines.join('\n')).not.toContain('203.0.113.7');
  });
});
