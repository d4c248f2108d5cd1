import { utcDays } from '../support/hit-days';
import { memoryGuessing } from '../support/access';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import * as hits from '../../shared/ingest/classify';
import type { QueuedHit } from '../../shared/core/message';
import type { IncomingRequest } from '../../host/http/request';
import type { ReceiveDeps } from '../../shared/ingest/receive';
import { answerBeacon } from '../../host/http/ingest';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import type { IdentityMode } from '../../shared/ingest/subjects/beacon';
import { visitorCookieHash } from '../../shared/ingest/subjects/cookie';
import { AGENTS, browserHeaders } from '../support/http';
import { HMAC_PERSON_IDS } from '../support/persons';
import { daySecretKeeper } from '../../shared/ingest/day-secrets';

// Issue 24: a beacon is classified once, and that verdict (its cookie's identity put in) is the one enqueued. The
// module is wrapped so the calls can be counted; every call still runs the real rule.
vi.mock('../../shared/ingest/classify', async (original) => {
  const actual = await original<typeof import('../../shared/ingest/classify')>();
  return { ...actual, classify: vi.fn(actual.classify) };
});

const classify = vi.mocked(hits.classify);
const rules = { hashKey: 'test-hash-key-0123456789abcdef', selfNetworks: [], selfAgentTag: 'headcount-self', ignoredPaths: ['/api/admin'] };
const at = '2026-10-23T10:00:00.000Z';

function deps(mode: IdentityMode) {
  const enqueued: QueuedHit[][] = [];
  const store = memoryStore();
  const clock = fixedClock(at);
  const receive: ReceiveDeps = {
    rules,
    secrets: daySecretKeeper({ secrets: store.secrets, clock, lateDays: 7, dayOf: utcDays }),
    persons: HMAC_PERSON_IDS,
    sender: {
      enqueue: async (batch) => {
        enqueued.push([...batch]);
        return { ok: true };
      },
      waiting: () => ({ requests: 0, hits: 0 }),
    },
    clock,
    logger: memoryLogger(),
    ingestKey: 'test-ingest-key-0123456789',
    operatorKey: 'test-operator-key-0123456789',
    trustedProxyHops: 0,
    guesses: memoryGuessing(fixedClock(at)),
    hitMaxAgeDays: 7,
    sites: async () => [{ name: 'example.com', origins: ['https://example.com'], zone: 'UTC' }],
    subjects: { mode, store: store.subjects },
  };
  return { receive, enqueued, store };
}

function beacon(body: Record<string, unknown>, headers: Record<string, string> = {}): IncomingRequest {
  const all: Record<string, string> = {
    'content-type': 'text/plain',
    origin: 'https://example.com',
    'x-forwarded-for': '198.51.100.23',
    'user-agent': AGENTS.firefoxLinux,
    ...browserHeaders(AGENTS.firefoxLinux),
    ...headers,
  };
  return {
    method: 'POST',
    header: (name) => all[name] ?? null,
    query: new URLSearchParams(),
    params: {},
    text: async () => JSON.stringify(body),
  };
}

/** The hit the rule gives the beacon's request, read afresh: what was enqueued before the verdict was carried. */
function expectedHit(visitor?: string): QueuedHit {
  const [request, , secret, days] = classify.mock.calls[0]!;
  const again = vi.mocked(hits.classify).getMockImplementation()!(
    { ...request, ...(visitor === undefined ? {} : { visitor }) },
    rules,
    secret,
    days,
  );
  if (!again.counted) throw new Error('not counted');
  return again.hit;
}

describe('a beacon is classified once', () => {
  // A block, not an arrow returning the mock: vitest would take a returned function for a clean-up and call it.
  beforeEach(() => {
    classify.mockClear();
  });

  it('in hash mode, a page load and a scan asking its status', async () => {
    for (const body of [{ path: '/about' }, { path: '/t/tree-1', subject: 'tree-1', status: true }]) {
      classify.mockClear();
      const { receive, enqueued } = deps('hash');
      const answer = await answerBeacon(beacon(body), receive);
      expect(answer.status).toBe(202);
      expect(classify).toHaveBeenCalledTimes(1);
      expect(enqueued).toEqual([[expectedHit()]]);
    }
  });

  it('in cookie mode without a cookie: offered one linked to the person hash, its status asked', async () => {
    const { receive, enqueued, store } = deps('cookie');
    const answer = await answerBeacon(beacon({ path: '/t/tree-1', subject: 'tree-1', status: true }), receive);
    expect(answer).toMatchObject({ status: 202, body: { accepted: 1, status: 'new' } });
    expect(classify).toHaveBeenCalledTimes(1);
    expect(enqueued).toEqual([[expectedHit()]]);
    const cookie = answer.cookies?.[0]?.value;
    expect(await store.subjects.cookies.read(visitorCookieHash(rules.hashKey, cookie!))).toMatchObject({
      identity: enqueued[0]![0]!.person,
    });
  });

  it('in cookie mode with a known cookie: the hit is the visitor the cookie stands for, as classify says of it', async () => {
    const { receive, enqueued } = deps('cookie');
    const first = await answerBeacon(beacon({ path: '/t/tree-1', subject: 'tree-1', status: true }), receive);
    const cookie = `visitor_id=${first.cookies![0]!.value}`;
    const person = enqueued[0]![0]!.person!;
    classify.mockClear();
    const again = await answerBeacon(
      beacon({ path: '/t/tree-1', subject: 'tree-1', status: true }, { cookie, 'x-forwarded-for': '203.0.113.99' }),
      receive,
    );
    expect(again).toMatchObject({ status: 202, body: { accepted: 1, status: 'returning' } });
    expect(classify).toHaveBeenCalledTimes(1);
    expect(enqueued[1]).toEqual([expectedHit(person)]);
    expect(enqueued[1]![0]!.person).toBe(person);
  });

  it('in cookie mode, the site reading itself keeps no person and is never new', async () => {
    const { receive, enqueued } = deps('cookie');
    const cookie = `visitor_id=3b241101-e2bb-4255-8caf-4136c566a962`;
    const answer = await answerBeacon(
      beacon({ path: '/t/tree-1', subject: 'tree-1', status: true }, { cookie, 'x-forwarded-for': '127.0.0.1' }),
      receive,
    );
    expect(answer).toMatchObject({ status: 202, body: { accepted: 1, status: 'returning' } });
    expect(classify).toHaveBeenCalledTimes(1);
    expect(enqueued).toEqual([[expectedHit()]]);
    expect(enqueued[0]![0]).toMatchObject({ self: true, person: null });
  });

  it('a beacon for a file a page is made of is classified once and not counted', async () => {
    const { receive, enqueued } = deps('cookie');
    const answer = await answerBeacon(beacon({ path: '/app.js' }, { cookie: 'visitor_id=3b241101-e2bb-4255-8caf-4136c566a962' }), receive);
    expect(answer).toMatchObject({ status: 202, body: { accepted: 0, ignored: 1 } });
    expect(classify).toHaveBeenCalledTimes(1);
    expect(enqueued).toEqual([]);
  });
});
