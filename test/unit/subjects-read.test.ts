import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { testAccess } from '../support/access';
import type { QueuedHit } from '../../shared/core/message';
import type { IncomingRequest } from '../../host/http/request';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { keepAndFold } from '../support/counting';
import { oneSubject, subjectsPage } from '../../shared/read/subjects';
import { detailQuerySchema, listQuerySchema } from '../../shared/contract/queries';
import { subjectSchema } from '../../shared/contract/hits';
import { lastValues, withParam } from '../../host/http/input';
import { operatorRead } from '../../host/http/route';
import { scanRules } from '../../shared/core/subjects/scan-rule';
import { oneZone } from '../../shared/core/sites/zones';
import { zoneOf } from '../../shared/core/zone';

const clock = fixedClock('2026-10-23T20:00:00Z');
const KEY = 'test-operator-key-0123456789';
const request = (query: string, params: Record<string, string> = {}): IncomingRequest => ({
  method: 'GET',
  header: (name) => (name === 'x-operator-key' ? KEY : null),
  query: new URLSearchParams(query),
  params,
  text: () => Promise.resolve(''),
});

async function seeded(zone = zoneOf('UTC')) {
  const store = memoryStore();
  const hit = (person: number, subject: string, minute: number): QueuedHit => ({
    at: `2026-10-23T10:${String(minute).padStart(2, '0')}:00.000Z`,
    token: 'a'.repeat(32),
    person: person.toString(16).padStart(32, '0'),
    network: 'x',
    path: '/',
    served_by: 'site',
    bot: false,
    self: false,
    source: null,
    subject,
  });
  // s-a: 1 scan; s-b: 3 scans by 1 visitor; s-c: 2 scans by 2 visitors; s-d: 4 scans by 2 visitors.
  const hits = [
    hit(1, 's-a', 0),
    hit(2, 's-b', 0),
    hit(2, 's-b', 2),
    hit(2, 's-b', 4),
    hit(3, 's-c', 0),
    hit(4, 's-c', 0),
    hit(5, 's-d', 0),
    hit(5, 's-d', 2),
    hit(6, 's-d', 0),
    hit(6, 's-d', 2),
  ];
  await keepAndFold(store, clock, hits, scanRules(10, 60));
  return {
    subjects: store.subjects,
    source: store.source,
    clock,
    logger: memoryLogger(),
    zone,
    days: () => Promise.resolve(oneZone(zone)),
    operator: {
      operatorKey: KEY,
      hashKey: 'test-hash-key-0123456789abcdef',
      access: testAccess(clock),
    },
  };
}

type Deps = Awaited<ReturnType<typeof seeded>>;

/** The subjects' list as its route answers it. */
const answerSubjects = (asked: IncomingRequest, deps: Deps) =>
  operatorRead(asked, deps.operator, lastValues(listQuerySchema), (query) => subjectsPage(query, deps));

/** One subject as its route answers it. */
const answerSubject = (asked: IncomingRequest, deps: Deps) =>
  operatorRead(asked, deps.operator, withParam('id', subjectSchema, lastValues(detailQuerySchema)), ({ param, rest }) =>
    oneSubject(param, rest, deps),
  );

describe('the subjects reads on the memory store', () => {
  it('sorts by any field and pages by continuation, each subject once', async () => {
    const deps = await seeded();
    const rows: Array<{ subject: string; repeat: number }> = [];
    let continuation: string | null = null;
    do {
      const answer: any = await answerSubjects(
        request(`sort=repeat&order=desc&limit=3${continuation ? `&continuation=${continuation}` : ''}`),
        deps,
      );
      expect(answer.status).toBe(200);
      rows.push(...answer.body.subjects);
      continuation = answer.body.continuation;
    } while (continuation);
    expect(rows.map((row) => [row.subject, row.repeat])).toEqual([
      ['s-b', 2],
      ['s-d', 2],
      ['s-a', 0],
      ['s-c', 0],
    ]);
    const ascending: any = await answerSubjects(request('sort=unique&order=asc'), deps);
    expect(ascending.body.subjects.map((row: any) => row.unique)).toEqual([1, 1, 2, 2]);
    expect(ascending.body.source).toContain('memory');
  });

  it('answers one subject with zeros on days without scans, and 404 for one never scanned', async () => {
    const deps = await seeded();
    const one: any = await answerSubject(request('days=3', { id: 's-d' }), deps);
    expect(one.body).toMatchObject({ subject: 's-d', scans: 4, unique: 2, repeat: 2, days: 3 });
    expect(one.body.by_day).toEqual([
      { day: '2026-10-21', scans: 0, new: 0 },
      { day: '2026-10-22', scans: 0, new: 0 },
      { day: '2026-10-23', scans: 4, new: 2 },
    ]);
    expect(await answerSubject(request('', { id: 's-z' }), deps)).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
  });

  it("ends its days at the site's local today, and names the zone", async () => {
    // 20:00Z on the 23rd is 09:00 on the 24th in Auckland.
    const deps = await seeded(zoneOf('Pacific/Auckland'));
    const one: any = await answerSubject(request('days=2', { id: 's-d' }), deps);
    expect(one.body.by_day.map((day: { day: string }) => day.day)).toEqual(['2026-10-23', '2026-10-24']);
    expect(one.body.time_zone).toBe('Pacific/Auckland');
  });

  it('refuses a continuation that is not one it gave, or a forged store continuation', async () => {
    const deps = await seeded();
    const forged = Buffer.from(JSON.stringify({ sort: 'scans', order: 'desc', token: 'x' })).toString('base64url');
    for (const continuation of ['bm90IGpzb24', forged]) {
      expect(await answerSubjects(request(`sort=scans&continuation=${continuation}`), deps)).toMatchObject({
        status: 400,
        body: { error: { issues: [{ path: 'continuation' }] } },
      });
    }
  });
});
