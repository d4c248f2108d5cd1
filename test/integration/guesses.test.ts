import type { Container } from '@azure/cosmos';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, browserHeaders, post } from '../support/http';

// Wrong guesses at every secret, through the local host on the local Cosmos server: counted in the store before they
// are answered, so a burst from one address gets at most five answers that are not 429, and a restart forgets none.
// The clock stands still, so no wait runs out while a test runs.

const clock = fixedClock('2026-10-23T12:00:00.000Z');
const PASSWORD = 'correct horse battery';
const BURST = 100;

type Asked = { status: number; json: any; retryAfter: string | null };

const asked = async (response: Response): Promise<Asked> => ({
  status: response.status,
  json: await response.json(),
  retryAfter: response.headers.get('retry-after'),
});

/** How many of a burst's answers are anything but 429. */
const answered = (all: Asked[]) => all.filter((one) => one.status !== 429).length;

describe('wrong guesses, counted in the store', () => {
  let t: TestHost;
  let container: Container;
  const get = (path: string, headers: Record<string, string>) => fetch(`${t.host.url}${path}`, { headers }).then(asked);
  const shared = (token: string, from: string, password?: string) =>
    get('/api/shared/activity', { 'x-share-token': token, 'x-forwarded-for': from, ...(password ? { 'x-share-password': password } : {}) });
  const admin = (key: string, from: string) =>
    get('/api/admin/visitors/people', { authorization: `Bearer ${key}`, 'x-forwarded-for': from });
  const makeLink = async (body: Record<string, unknown>): Promise<string> => {
    const made = await post(`${t.host.url}/api/admin/links`, body, {
      'x-operator-key': t.env.OPERATOR_KEY!,
      'x-forwarded-for': '10.9.9.9',
    });
    expect(made.status).toBe(201);
    return made.json.token;
  };
  const burst = (one: (i: number) => Promise<Asked>) => Promise.all(Array.from({ length: BURST }, (_, i) => one(i)));

  beforeAll(async () => {
    t = await startTestHost({ env: { TRUSTED_PROXY_HOPS: '1' }, overrides: { clock } });
    container = await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  it('answers at most five of 100 wrong link tokens sent at once from one address, the rest 429', async () => {
    const all = await burst(() => shared(randomBytes(24).toString('base64url'), '198.51.100.1'));
    expect(answered(all)).toBe(5);
    const held = all.find((one) => one.status === 429)!;
    expect(held.json.error.code).toBe('too_many_attempts');
    expect(Number(held.retryAfter)).toBeGreaterThan(0);
  });

  it("answers at most five of 100 wrong passwords sent at once, and the link's reader elsewhere is not slowed", async () => {
    const token = await makeLink({ site: 'site.example', password: PASSWORD });
    const all = await burst((i) => shared(token, '198.51.100.2', `wrong ${i}`));
    expect(answered(all)).toBe(5);
    expect(
      all.filter((one) => one.status === 401).every((one) => one.json.error.message.startsWith('The link or its password is wrong')),
    ).toBe(true);
    expect((await shared(token, '198.51.100.2', PASSWORD)).status).toBe(429);
    expect((await shared(token, '203.0.113.50', PASSWORD)).status).toBe(200);
  });

  it('answers at most five of 100 wrong operator keys at once; the owner at another address is in', async () => {
    const all = await burst((i) => admin(`guess-${i}-${randomBytes(8).toString('hex')}`, '2001:db8:7:7::1'));
    expect(answered(all)).toBe(5);
    // The same /64 is the same guesser; another address is not.
    expect((await admin(t.env.OPERATOR_KEY!, '2001:db8:7:7:ffff::2')).status).toBe(429);
    expect((await admin(t.env.OPERATOR_KEY!, '2001:db8:7:8::1')).status).toBe(200);
  });

  it('answers at most five of 100 wrong ingest keys at once', async () => {
    const all = await burst(async (i) => {
      const sent = await post(
        `${t.host.url}/api/hits`,
        { address: '203.0.113.9', user_agent: AGENTS.firefoxLinux, path: '/' },
        {
          'x-ingest-key': `wrong-${i}`,
          'x-forwarded-for': '198.51.100.3',
        },
      );
      return { status: sent.status, json: sent.json, retryAfter: sent.headers.get('retry-after') };
    });
    expect(answered(all)).toBe(5);
  });

  it('keeps the slowdown over a restart: a new host on the same store still refuses the address', async () => {
    for (let i = 0; i < 5; i += 1) expect((await admin(`wrong-${i}`, '198.51.100.4')).status).toBe(401);
    await t.stop();
    t = await startTestHost({ env: t.env, overrides: { clock } });
    const after = await admin(t.env.OPERATOR_KEY!, '198.51.100.4');
    expect(after.status).toBe(429);
    expect(after.retryAfter).toBe('1');
    clock.advance(1_000);
    expect((await admin(t.env.OPERATOR_KEY!, '198.51.100.4')).status).toBe(200);
  });

  it('keeps no address in what it counts, only keyed hashes that expire', async () => {
    const { resources } = await container.items.query("SELECT * FROM c WHERE c.kind = 'guess-count'").fetchAll();
    expect(resources.length).toBeGreaterThan(4);
    const kept = JSON.stringify(resources);
    for (const address of ['198.51.100.', '2001:db8', '203.0.113.']) expect(kept).not.toContain(address);
    for (const doc of resources) expect(doc).toMatchObject({ pk: 'guesses', ttl: 900, id: expect.stringMatching(/^guess:[0-9a-f]{32}$/) });
  });
});

describe("a beacon's operator claim", () => {
  let t: TestHost;
  const beacon = (subject: string, from: string, claim: { key?: string; operator?: string }) =>
    post(
      `${t.host.url}/api/beacon`,
      { path: '/', subject, status: true, ...(claim.operator === undefined ? {} : { operator: claim.operator }) },
      {
        ...browserHeaders(AGENTS.firefoxLinux),
        origin: 'https://site.example',
        'user-agent': AGENTS.firefoxLinux,
        'x-forwarded-for': from,
        ...(claim.key === undefined ? {} : { authorization: `Bearer ${claim.key}` }),
      },
    );

  beforeAll(async () => {
    t = await startTestHost({ env: { TRUSTED_PROXY_HOPS: '1' }, overrides: { clock } });
    await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  it('answers the same for a right key and a wrong one, as a header or in the body', async () => {
    const right = await beacon('tree-1', '198.51.100.10', { key: t.env.OPERATOR_KEY! });
    const wrong = await beacon('tree-2', '198.51.100.11', { key: 'a-wrong-guess' });
    const wrongMark = await beacon('tree-3', '198.51.100.12', { operator: 'another-wrong-guess' });
    expect(right.status).toBe(202);
    expect(wrong).toMatchObject({ status: right.status, json: right.json });
    expect(wrongMark).toMatchObject({ status: right.status, json: right.json });
    expect(right.json.status).toBe('returning');
    expect(wrong.headers.get('set-cookie')).toBeNull();
    // Without a claim a new subject is new.
    expect((await beacon('tree-4', '198.51.100.13', {})).json.status).toBe('new');
  });

  it('counts a wrong claim as a wrong key: five are answered, then 429 with Retry-After, the right key too', async () => {
    for (let i = 0; i < 5; i += 1) expect((await beacon(`tree-${10 + i}`, '198.51.100.20', { key: `guess-${i}` })).status).toBe(202);
    const held = await beacon('tree-20', '198.51.100.20', { key: t.env.OPERATOR_KEY! });
    expect(held.status).toBe(429);
    expect(held.json.error.code).toBe('too_many_attempts');
    expect(held.headers.get('retry-after')).toBe('1');
  });
});
