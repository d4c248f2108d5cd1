import { utcZone } from '../support/hit-days';
import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { OPERATOR_COOKIE_MAX_AGE } from '../../host/http/admin/auth';
import { testAccess } from '../support/access';
import { peopleCount, pulse, type CountAnswerDeps } from '../../shared/read/counting/answers';
import { nothing } from '../../host/http/input';
import { operatorRead, publicRead, pulseCors } from '../../host/http/route';
import type { IncomingRequest } from '../../host/http/request';
import { OPERATOR_COOKIE } from '../../shared/core/identity/operator';
import { operatorCookieValue } from '../../shared/core/identity/tokens';
import { fixedClock } from '../../shared/core/ports/clock';
import { keepAndFold, queuedHit } from '../support/counting';

const OPERATOR_KEY = 'unit-operator-key-0123456789';
const HASH_KEY = 'unit-hash-key-0123456789abcdef';

const request = (headers: Record<string, string> = {}, method = 'GET'): IncomingRequest => {
  const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return { method, header: (name) => lower[name.toLowerCase()] ?? null, query: new URLSearchParams(), params: {}, text: async () => '' };
};

async function rig() {
  const store = memoryStore();
  const clock = fixedClock('2026-10-23T12:00:00.000Z');
  await keepAndFold(store, clock, [queuedHit('2026-10-23T10:00:00.000Z', { person: 'a' })]);
  const deps: CountAnswerDeps = {
    site: 'site.example',
    count: {
      visitorsSummary: store.visitorsSummary,
      visits: store.visits,
      foldState: store.foldState,
      clock,
      source: store.source,
      ...utcZone,
    },
    allowedOrigins: ['https://site.example'],
    pulseGoal: null,
  };
  const operator = { operatorKey: OPERATOR_KEY, hashKey: HASH_KEY, access: testAccess(clock) };
  return { deps, operator };
}

/** The Admin count as its route answers it. */
const answerPeopleCount = (request: IncomingRequest, { deps, operator }: Awaited<ReturnType<typeof rig>>) =>
  operatorRead(request, operator, nothing, () => peopleCount(deps));

/** The pulse as its route answers it. */
const answerPulse = (request: IncomingRequest, { deps }: Awaited<ReturnType<typeof rig>>) =>
  publicRead(request, pulseCors(deps.allowedOrigins), () => pulse(deps));

describe('the two reads of the count', () => {
  it('refuses the Admin count without the operator key, or with a wrong one, in the error envelope', async () => {
    const deps = await rig();
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-key-0123456789' },
      { 'x-operator-key': `${OPERATOR_KEY}x` },
      { cookie: `${OPERATOR_COOKIE}=${operatorCookieValue(HASH_KEY)}` },
    ] as Record<string, string>[]) {
      const answer = await answerPeopleCount(request(headers), deps);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: { code: 'unauthorized', message: expect.stringContaining('operator key') } });
      expect(answer.cookies).toBeUndefined();
    }
  });

  it('answers the operator with the count and the operator cookie, by either header', async () => {
    const deps = await rig();
    for (const headers of [{ authorization: `Bearer ${OPERATOR_KEY}` }, { 'x-operator-key': OPERATOR_KEY }] as Record<string, string>[]) {
      const answer = await answerPeopleCount(request(headers), deps);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ people_all_time: 1, people_new_today: 1 });
      expect(answer.headers?.['cache-control']).toBe('no-store');
      expect(answer.cookies).toEqual([
        {
          name: OPERATOR_COOKIE,
          value: operatorCookieValue(HASH_KEY),
          maxAge: OPERATOR_COOKIE_MAX_AGE,
          httpOnly: true,
          secure: true,
          sameSite: 'Lax',
          path: '/',
        },
      ]);
    }
  });

  it('answers the pulse to anyone, cacheable for a minute, with CORS only for an allowed origin', async () => {
    const deps = await rig();
    const allowed = await answerPulse(request({ origin: 'https://site.example' }), deps);
    expect(allowed.status).toBe(200);
    expect(allowed.headers).toMatchObject({
      'cache-control': 'public, max-age=60',
      'access-control-allow-origin': 'https://site.example',
      vary: 'Origin',
    });
    expect(allowed.body).toMatchObject({ people_all_time: 1, counted_from: '2026-10-23', visits_all_time: 1 });
    const other = await answerPulse(request({ origin: 'https://elsewhere.example' }), deps);
    expect(other.status).toBe(200);
    expect(other.headers?.['access-control-allow-origin']).toBeUndefined();
    expect((await answerPulse(request({ origin: 'https://site.example' }, 'OPTIONS'), deps)).status).toBe(204);
  });
});
