import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post, browserHeaders } from '../support/http';
import { plainFigures, type FixtureScan } from '../support/subjects';

const START = Date.parse('2026-10-23T08:00:00.000Z');
const clock = fixedClock('2026-10-23T12:00:00.000Z');

/** Six people, each its own address; a crawler and the site itself scan too and are kept apart. */
const addressOf = (person: string) => `203.0.113.${person.charCodeAt(0) - 96}`;
const s = (person: string, subject: string, seconds: number): FixtureScan => ({ person, subject, ms: seconds * 1000 });
const fixture: FixtureScan[] = [
  // tree-1: ann four times over the hour (a reload, a quick repeat, two counted), bob twice a day apart in minutes.
  s('a', 'tree-1', 0),
  s('a', 'tree-1', 5),
  s('a', 'tree-1', 30),
  s('a', 'tree-1', 120),
  s('a', 'tree-1', 3600),
  s('b', 'tree-1', 60),
  s('b', 'tree-1', 600),
  s('c', 'tree-1', 900),
  // tree-2: ann again (new here); dan reloads every 9.999 s past a minute (one scan), hal every 10 s (the limit counts
  // him again at 60 s); eve comes back 59.999 s and gus 60 s after their first.
  s('a', 'tree-2', 10),
  ...Array.from({ length: 8 }, (_, i) => s('d', 'tree-2', i * 9.999)),
  ...Array.from({ length: 8 }, (_, i) => s('h', 'tree-2', i * 10)),
  s('e', 'tree-2', 100),
  s('e', 'tree-2', 130),
  s('e', 'tree-2', 159.999),
  s('g', 'tree-2', 100),
  s('g', 'tree-2', 130),
  s('g', 'tree-2', 160),
  // poster-7: fay once.
  s('f', 'poster-7', 42),
];

describe('subjects through the local host, Azurite and the local Cosmos server (hash mode)', () => {
  let t: TestHost;
  const admin = (path: string, key = t.env.OPERATOR_KEY!) =>
    fetch(`${t.host.url}${path}`, { headers: { 'x-operator-key': key } }).then(async (r) => ({ status: r.status, json: await r.json() }));
  const hits = (body: unknown) => post(`${t.host.url}/api/hits`, body, { 'x-ingest-key': t.env.INGEST_KEY! });
  const beacon = (body: unknown, address: string) =>
    post(`${t.host.url}/api/beacon`, body, {
      ...browserHeaders(AGENTS.firefoxLinux),
      origin: 'https://site.example',
      'user-agent': AGENTS.firefoxLinux,
      'x-forwarded-for': address,
    });

  beforeAll(async () => {
    t = await startTestHost({ env: { TRUSTED_PROXY_HOPS: '1' }, overrides: { clock } });
    await containerOf(t.env);
    // The fixture as the site's server reports it, in time order, kept message by message.
    const byTime = [...fixture].sort((x, y) => x.ms - y.ms);
    for (let i = 0; i < byTime.length; i += 4) {
      const chunk = byTime.slice(i, i + 4).map((scan) => ({
        at: new Date(START + scan.ms).toISOString(),
        address: addressOf(scan.person),
        user_agent: AGENTS.chromeWindows,
        path: '/scan',
        subject: scan.subject,
      }));
      expect((await hits({ hits: chunk })).status).toBe(202);
      await t.host.drain();
    }
    const apart = [
      { at: new Date(START + 50_000).toISOString(), address: '192.0.2.10', user_agent: AGENTS.googlebot, path: '/scan', subject: 'tree-1' },
      { at: new Date(START + 51_000).toISOString(), address: '192.0.2.10', user_agent: AGENTS.googlebot, path: '/scan', subject: 'tree-1' },
      {
        at: new Date(START + 52_000).toISOString(),
        address: '10.20.0.5',
        user_agent: AGENTS.chromeWindows,
        path: '/scan',
        subject: 'tree-1',
      },
    ];
    expect((await hits({ hits: apart })).status).toBe(202);
    await t.host.drain();
    await t.fold();
  });
  afterAll(() => t.stop());

  it('totals, unique and repeat per subject equal the plainly computed figures, scanners and self apart', async () => {
    const expected = plainFigures(fixture);
    expect(expected.get('tree-2')).toEqual({ scans: 7, unique: 5, repeat: 2 }); // the fixture is what it says
    for (const [subject, figures] of expected) {
      const one = await admin(`/api/admin/subjects/${subject}?days=2`);
      expect(one.status).toBe(200);
      expect({ scans: one.json.scans, unique: one.json.unique, repeat: one.json.repeat }, subject).toEqual(figures);
      expect(one.json.by_day).toEqual([
        { day: '2026-10-22', scans: 0, new: 0 },
        { day: '2026-10-23', scans: figures.scans, new: figures.unique },
      ]);
    }
    const tree1 = await admin('/api/admin/subjects/tree-1');
    expect(tree1.json).toMatchObject({
      scanners: 2,
      self: 1,
      first_scan: new Date(START).toISOString(),
      last_scan: new Date(START + 3_600_000).toISOString(),
    });
    expect(tree1.json.by_day).toHaveLength(30);
    expect(tree1.json.source).toContain('Cosmos DB');
    const list = await admin('/api/admin/subjects?sort=subject&order=asc');
    expect(list.json.subjects.map((row: any) => [row.subject, row.scans, row.unique, row.repeat])).toEqual(
      [...expected].sort(([a], [b]) => (a < b ? -1 : 1)).map(([subject, f]) => [subject, f.scans, f.unique, f.repeat]),
    );
  });

  it('pages the list by continuation, each subject once, in order', async () => {
    const seen: any[] = [];
    let continuation: string | null = null;
    do {
      const query: string = `/api/admin/subjects?sort=scans&order=desc&limit=1${continuation ? `&continuation=${continuation}` : ''}`;
      const page = await admin(query);
      expect(page.status).toBe(200);
      expect(page.json.subjects.length).toBeLessThanOrEqual(1);
      seen.push(...page.json.subjects);
      continuation = page.json.continuation;
    } while (continuation);
    expect(seen.map((row) => row.subject).sort()).toEqual(['poster-7', 'tree-1', 'tree-2']);
    expect(seen.map((row) => row.scans)).toEqual([...seen.map((row) => row.scans)].sort((a, b) => b - a));
    for (const sort of ['subject', 'scans', 'unique', 'repeat', 'last_scan']) {
      for (const order of ['asc', 'desc']) {
        const page = await admin(`/api/admin/subjects?sort=${sort}&order=${order}`);
        const values = page.json.subjects.map((row: any) => row[sort]);
        const sorted = [...values].sort((a, b) => (a === b ? 0 : a < b ? -1 : 1));
        expect(values, `${sort} ${order}`).toEqual(order === 'asc' ? sorted : sorted.reverse());
      }
    }
    const first = await admin('/api/admin/subjects?sort=scans&limit=1');
    const crossed = await admin(`/api/admin/subjects?sort=unique&limit=1&continuation=${first.json.continuation}`);
    expect(crossed).toMatchObject({ status: 400, json: { error: { issues: [{ path: 'continuation' }] } } });
  });

  it('answers new or returning at once: a visitor is new on each of two subjects, then returning', async () => {
    const statuses = [];
    for (const subject of ['bench-1', 'bench-2', 'bench-1', 'bench-2']) {
      const answer = await beacon({ path: '/scan', subject, status: true }, '198.51.100.31');
      expect(answer.status).toBe(202);
      statuses.push(answer.json);
      clock.advance(61_000);
    }
    expect(statuses).toEqual([
      { accepted: 1, ignored: 0, status: 'new' },
      { accepted: 1, ignored: 0, status: 'new' },
      { accepted: 1, ignored: 0, status: 'returning' },
      { accepted: 1, ignored: 0, status: 'returning' },
    ]);
    await t.host.drain();
    await t.fold();
    expect((await admin('/api/admin/subjects/bench-1')).json).toMatchObject({ scans: 2, unique: 1, repeat: 1 });
  });

  it('of two scans of one subject by one new visitor sent at once, exactly one answers new', async () => {
    for (let n = 0; n < 5; n += 1) {
      const pair = await Promise.all(
        [0, 1].map(() => beacon({ path: '/scan', subject: `race-${n}`, status: true }, `198.51.100.${50 + n}`)),
      );
      expect(pair.map((answer) => answer.status)).toEqual([202, 202]);
      expect(pair.map((answer) => answer.json.status).sort()).toEqual(['new', 'returning']);
    }
    await t.host.drain();
    await t.fold();
    expect((await admin('/api/admin/subjects/race-0')).json).toMatchObject({ scans: 1, unique: 1, repeat: 0 });
  });

  it('a reload and a quick repeat are answered normally and not counted again', async () => {
    const answers = [];
    for (const wait of [0, 5_000, 25_000, 30_000]) {
      clock.advance(wait);
      answers.push(await beacon({ path: '/scan', subject: 'gate-1', status: true }, '198.51.100.70'));
    }
    expect(answers.map((a) => [a.status, a.json.status])).toEqual([
      [202, 'new'],
      [202, 'returning'],
      [202, 'returning'],
      [202, 'returning'],
    ]);
    await t.host.drain();
    await t.fold();
    expect((await admin('/api/admin/subjects/gate-1')).json).toMatchObject({ scans: 2, unique: 1, repeat: 1 }); // at 0 and 60 s
  });

  it('refuses a bad subject naming the field, and status without a subject', async () => {
    for (const subject of ['x'.repeat(65), '../x', 'a/b', 'tree 1', '']) {
      const fromServer = await hits({ address: '203.0.113.1', user_agent: AGENTS.chromeWindows, path: '/', subject });
      expect(fromServer.status, subject).toBe(400);
      expect(fromServer.json.error.issues.map((i: any) => i.path)).toEqual(['subject']);
      const fromBrowser = await beacon({ path: '/', subject, status: true }, '203.0.113.1');
      expect(fromBrowser.status, subject).toBe(400);
      expect(fromBrowser.json.error.issues.map((i: any) => i.path)).toContain('subject');
    }
    const noSubject = await beacon({ path: '/', status: true }, '203.0.113.1');
    expect(noSubject).toMatchObject({ status: 400, json: { error: { issues: [{ path: 'status' }] } } });
  });

  it('answers the read routes: 401 without the key, 404 for an unknown subject, 400 naming a bad id or paging parameter', async () => {
    expect((await admin('/api/admin/subjects', 'wrong-key-0123456789')).status).toBe(401);
    expect(await admin('/api/admin/subjects/never-scanned')).toMatchObject({ status: 404, json: { error: { code: 'not_found' } } });
    for (const id of ['..%2Fx', 'a%2Fb', 'x'.repeat(65), 'tree%201']) {
      expect(await admin(`/api/admin/subjects/${id}`), id).toMatchObject({ status: 400, json: { error: { issues: [{ path: 'id' }] } } });
    }
    expect(await admin('/api/admin/subjects/tree-1?days=0')).toMatchObject({
      status: 400,
      json: { error: { issues: [{ path: 'days' }] } },
    });
    const bad: Array<[string, string]> = [
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['sort=password', 'sort'],
      ['order=up', 'order'],
      ['continuation=garbage!', 'continuation'],
      ['continuation=', 'continuation'],
      ['page=2', 'page'],
    ];
    for (const [query, field] of bad) {
      const answer = await admin(`/api/admin/subjects?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.json.error.message, query).toMatch(new RegExp(`^${field}: `));
    }
  });
});
