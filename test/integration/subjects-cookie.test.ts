import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CosmosDocuments } from '../../adapters/cosmos/documents';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post, browserHeaders } from '../support/http';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const clock = fixedClock('2026-10-23T12:00:00.000Z');
const logger = memoryLogger();

/** The visitor_id cookie a response sets, with its attributes, or null. */
function visitorCookie(headers: Headers): { value: string; attributes: string[] } | null {
  const line = headers.getSetCookie().find((cookie) => cookie.startsWith('visitor_id='));
  if (!line) return null;
  const [pair, ...attributes] = line.split(';').map((part) => part.trim());
  return { value: pair!.slice('visitor_id='.length), attributes };
}

describe('cookie mode through the local host, Azurite and the local Cosmos server', () => {
  let t: TestHost;
  let documents: CosmosDocuments;
  const issued: string[] = [];
  const scan = async (address: string, cookie?: string) => {
    const answer = await post(
      `${t.host.url}/api/beacon`,
      { path: '/trees/9', subject: 'tree-9', status: true },
      {
        origin: 'https://site.example',
        ...browserHeaders(AGENTS.safariIphone),
        'user-agent': AGENTS.safariIphone,
        'x-forwarded-for': address,
        ...(cookie === undefined ? {} : { cookie }),
      },
    );
    clock.advance(61_000);
    const set = visitorCookie(answer.headers);
    if (set) issued.push(set.value);
    return { status: answer.status, json: answer.json, set };
  };

  beforeAll(async () => {
    t = await startTestHost({ env: { TRUSTED_PROXY_HOPS: '1', IDENTITY_MODE: 'cookie' }, overrides: { clock, logger } });
    documents = new CosmosDocuments(await containerOf(t.env));
  });
  afterAll(() => t.stop());

  it('gives a new browser the cookie with the right attributes; the same cookie is returning, from another address too', async () => {
    const first = await scan('203.0.113.40');
    expect(first).toMatchObject({ status: 202, json: { accepted: 1, ignored: 0, status: 'new' } });
    expect(first.set!.value).toMatch(UUID_V4);
    expect(first.set!.attributes.sort()).toEqual(['HttpOnly', 'Max-Age=63072000', 'Path=/', 'SameSite=Lax', 'Secure']);
    const again = await scan('203.0.113.40', `visitor_id=${first.set!.value}`);
    expect(again).toMatchObject({ status: 202, json: { status: 'returning' }, set: null });
    const moved = await scan('198.51.100.77', `other=1; visitor_id=${first.set!.value}`);
    expect(moved).toMatchObject({ status: 202, json: { status: 'returning' }, set: null });
  });

  it('refuses a garbage cookie as malformed and treats it as absent: a new visitor, offered a new cookie', async () => {
    const garbage = await scan('203.0.113.41', 'visitor_id=garbage%00;');
    expect(garbage).toMatchObject({ status: 202, json: { status: 'new' } });
    expect(garbage.set!.value).toMatch(UUID_V4);
    expect(logger.lines.filter((line) => line.includes('malformed visitor cookie'))).toHaveLength(1);
    expect(logger.lines.join('\n')).not.toContain('garbage');
  });

  it('a well-formed unknown cookie is a new visitor, even from an address seen before', async () => {
    const unknown = randomUUID();
    issued.push(unknown);
    expect(await scan('203.0.113.40', `visitor_id=${unknown}`)).toMatchObject({ status: 202, json: { status: 'new' }, set: null });
  });

  it('a browser that blocks cookies falls back to the person hash: returning on its second scan, offered a cookie each time', async () => {
    const first = await scan('203.0.113.42');
    const second = await scan('203.0.113.42');
    expect([first.json.status, second.json.status]).toEqual(['new', 'returning']);
    expect(first.set).not.toBeNull();
    expect(second.set).not.toBeNull();
  });

  it('counts people with the same identity, and no stored document holds a cookie', async () => {
    await t.host.drain();
    await t.fold();
    // Four people: the moved browser (its cookie keeps it one), the garbage one, the unknown cookie, the blocker.
    expect((await t.root.store.visitorsSummary.peopleFrom('2026-10-01')).people_all_time).toBe(4);
    const subject = (await t.root.store.subjects.summaries.read('tree-9'))!.doc;
    expect(subject).toMatchObject({ scans: 7, unique: 4, repeat: 3 });
    const all = JSON.stringify(await documents.query('SELECT * FROM c', []));
    expect(all).toContain('visitor-cookie:');
    expect(issued.length).toBeGreaterThanOrEqual(5);
    for (const uuid of issued) {
      expect(all).not.toContain(uuid);
      expect(all).not.toContain(uuid.replace(/-/g, ''));
    }
    expect((await t.poison.peekMessages()).peekedMessageItems).toHaveLength(0);
  });
});
