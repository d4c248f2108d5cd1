import { describe, expect, it } from 'vitest';
import { asOperator, checkOperator, type OperatorSettings } from '../../host/http/admin/auth';
import { testAccess } from '../support/access';
import {
  liveTimes,
  newSessionId,
  SESSION_COOKIE,
  SESSION_LONGEST_SECONDS,
  sessionDoc,
  sessionIdOf,
  sessionKey,
  sessionToken,
} from '../../host/http/admin/session';
import { sessionState, signIn, signOut } from '../../host/http/admin/sign-in';
import type { Answer } from '../../host/http/envelope';
import type { IncomingRequest } from '../../host/http/request';
import { fixedClock } from '../../shared/core/ports/clock';

// The Admin session and the slowdown of wrong keys, on a clock the test moves: nothing here waits on the wall clock.

const KEY = 'test-operator-key-0123456789';
const HASH = 'test-hash-key-0123456789abcdef';
const START = '2026-10-23T10:00:00.000Z';

function rig(hours = 8) {
  const clock = fixedClock(START);
  const settings: OperatorSettings = {
    operatorKey: KEY,
    hashKey: HASH,
    access: testAccess(clock, hours),
  };
  return { clock, settings };
}

/** A request from an address (the platform's X-Forwarded-For), with headers. */
function request(headers: Record<string, string> = {}, address = '203.0.113.7', method = 'GET'): IncomingRequest {
  const all: Record<string, string> = { 'x-forwarded-for': `${address}:55000`, ...headers };
  return { method, header: (name) => all[name.toLowerCase()] ?? null, query: new URLSearchParams(), params: {}, text: async () => '' };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const sessionOf = (answer: Answer) => answer.cookies?.find((cookie) => cookie.name === SESSION_COOKIE);
const withSession = (answer: Answer) => ({ cookie: `${SESSION_COOKIE}=${sessionOf(answer)!.value}` });
const ok = async (): Promise<Answer> => ({ status: 200, body: { read: true } });

describe('the session token', () => {
  const key = sessionKey(KEY, HASH);
  const now = 1_800_000_000;

  it('names its session, is made only with the key, and says nothing of the key', () => {
    const id = newSessionId();
    const token = sessionToken(key, id);
    expect(token).toMatch(/^v2\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(token).not.toContain(KEY);
    expect(sessionIdOf(token, key)).toBe(id);
    expect(sessionIdOf(token, sessionKey('another-operator-key-0000', HASH))).toBeNull();
    expect(sessionIdOf(token, sessionKey(KEY, 'another-hash-key-0123456789'))).toBeNull();
  });

  it('refuses any change to its id, and anything not in its shape', () => {
    const token = sessionToken(key, newSessionId());
    const [v, id, mac] = token.split('.');
    for (const forged of [`${v}.${newSessionId()}.${mac}`, `v1.${id}.${mac}`, `${token}x`, '', 'v2.1.x', KEY, 'a'.repeat(5000)])
      expect(sessionIdOf(forged, key)).toBeNull();
  });

  it('ends at its expiry, and SESSION_LONGEST_SECONDS after signing in however it was renewed', () => {
    const short = sessionDoc('id', { signedInAt: now, expiresAt: now + 3600 }, now);
    expect(short).toMatchObject({ pk: 'sessions', kind: 'admin-session', ttl: 3600 });
    expect(short.id).toMatch(/^session:[0-9a-f]{32}$/);
    expect(liveTimes(short, now + 3599)).toEqual({ signedInAt: now, expiresAt: now + 3600 });
    expect(liveTimes(short, now + 3600)).toBeNull();
    const long = sessionDoc('id', { signedInAt: now, expiresAt: now + SESSION_LONGEST_SECONDS + 3600 }, now);
    expect(liveTimes(long, now + SESSION_LONGEST_SECONDS - 1)).not.toBeNull();
    expect(liveTimes(long, now + SESSION_LONGEST_SECONDS)).toBeNull();
  });
});

describe('an admin read takes the key or a session, and slows wrong keys', () => {
  it('answers a right key; a request with no credential at all is 401 and costs nothing', async () => {
    const { settings } = rig();
    expect((await asOperator(request(bearer(KEY)), settings, ok)).status).toBe(200);
    expect((await asOperator(request({ 'x-operator-key': KEY }), settings, ok)).status).toBe(200);
    for (let i = 0; i < 20; i += 1) expect((await asOperator(request(), settings, ok)).status).toBe(401);
    expect((await asOperator(request(bearer(KEY)), settings, ok)).status).toBe(200);
  });

  it('answers the first five wrong keys at once, then 429 with Retry-After until the wait is over, whatever is sent', async () => {
    const { clock, settings } = rig();
    for (let i = 0; i < 4; i += 1) {
      const answer = await asOperator(request(bearer('wrong-key')), settings, ok);
      expect(answer.status).toBe(401);
      expect(answer.headers?.['retry-after']).toBeUndefined();
    }
    const fifth = await asOperator(request(bearer('wrong-key')), settings, ok);
    expect(fifth.status).toBe(401);
    expect(fifth.headers?.['retry-after']).toBe('1');
    expect((fifth.body as any).error.message).toBe(
      'authorization: the operator key is wrong; this address waits 1 second before its next try.',
    );
    // Until the second has passed nothing is checked, not even the right key: parallel guesses gain nothing.
    for (const key of ['wrong-key', KEY]) {
      const held = await asOperator(request(bearer(key)), settings, ok);
      expect(held.status).toBe(429);
      expect(held.headers?.['retry-after']).toBe('1');
      expect((held.body as any).error).toMatchObject({ code: 'too_many_attempts' });
    }
    // Another address is not held.
    expect((await asOperator(request(bearer(KEY), '198.51.100.9'), settings, ok)).status).toBe(200);
    clock.advance(1_000);
    const sixth = await asOperator(request(bearer('wrong-key')), settings, ok);
    expect(sixth.headers?.['retry-after']).toBe('2');
    clock.advance(2_000);
    // The owner, who knows the key, is in at the end of the wait; a right key forgets nothing a guesser did.
    expect((await asOperator(request(bearer(KEY)), settings, ok)).status).toBe(200);
    expect((await asOperator(request(bearer('wrong-key')), settings, ok)).headers?.['retry-after']).toBe('4');
  });

  it('never slows a valid session, whatever wrong keys its address sent', async () => {
    const { settings } = rig();
    const signedIn = await signIn(request(bearer(KEY), undefined, 'POST'), settings);
    for (let i = 0; i < 10; i += 1) await asOperator(request(bearer(`guess-${i}`)), settings, ok);
    expect((await asOperator(request(bearer(KEY)), settings, ok)).status).toBe(429);
    expect((await asOperator(request(withSession(signedIn)), settings, ok)).status).toBe(200);
  });

  it('never keeps the owner out for more than 30 seconds, however many wrong keys came before', async () => {
    const { clock, settings } = rig();
    for (let i = 0; i < 200; i += 1) {
      await asOperator(request(bearer(`guess-${i}`)), settings, ok);
      clock.advance(31_000);
    }
    const held = await asOperator(request(bearer('guess')), settings, ok);
    expect(held.headers?.['retry-after']).toBe('30');
    clock.advance(30_000);
    expect((await asOperator(request(bearer(KEY)), settings, ok)).status).toBe(200);
  });
});

describe('the session: signed in with the key, renewed while used, ended by signing out', () => {
  it('signs in with the key alone, into an HttpOnly, Secure, SameSite=Strict cookie that outlives nothing it should', async () => {
    const { settings } = rig(8);
    const signedIn = await signIn(request(bearer(KEY), undefined, 'POST'), settings);
    expect(signedIn.status).toBe(200);
    expect(sessionOf(signedIn)).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/', maxAge: 8 * 3600 });
    expect(sessionOf(signedIn)!.value).not.toContain(KEY);
    expect(signedIn.body).toMatchObject({ signed_in: true, via: 'session', expires_at: '2026-10-23T18:00:00.000Z', session_hours: 8 });
    // A cookie alone never makes another session; a wrong key makes none.
    expect((await signIn(request(withSession(signedIn), undefined, 'POST'), settings)).status).toBe(401);
    expect(sessionOf(await signIn(request(bearer('wrong'), undefined, 'POST'), settings))).toBeUndefined();
  });

  it('reads with the session, renews it once it is five minutes old, and ends it after its hours unused', async () => {
    const { clock, settings } = rig(2);
    const signedIn = await signIn(request(bearer(KEY), undefined, 'POST'), settings);
    const read = await asOperator(request(withSession(signedIn)), settings, ok);
    expect(read.status).toBe(200);
    expect(sessionOf(read)).toBeUndefined();
    clock.advance(10 * 60_000);
    const renewed = await asOperator(request(withSession(signedIn)), settings, ok);
    expect(sessionOf(renewed)).toMatchObject({ maxAge: 2 * 3600 });
    clock.advance(2 * 3600_000 - 1_000);
    expect((await asOperator(request(withSession(renewed)), settings, ok)).status).toBe(200);
    clock.advance(2 * 3600_000 + 1_000);
    const ended = await asOperator(request(withSession(renewed)), settings, ok);
    expect(ended.status).toBe(401);
    expect(sessionOf(ended)).toMatchObject({ value: '', maxAge: 0 });
    // A session that ran out was real: no failure is counted for it.
    for (let i = 0; i < 5; i += 1) await asOperator(request(withSession(renewed)), settings, ok);
    expect((await asOperator(request(bearer(KEY)), settings, ok)).status).toBe(200);
    const asked = await sessionState(request(withSession(renewed)), settings);
    expect([asked.status, asked.body]).toEqual([200, { signed_in: false, ended: true }]);
  });

  it('counts a forged session cookie as a wrong key, and removes it', async () => {
    const { settings } = rig();
    for (let i = 0; i < 5; i += 1) {
      const answer = await asOperator(request({ cookie: `${SESSION_COOKIE}=v1.1.9999999999.${'A'.repeat(43)}` }), settings, ok);
      expect(answer.status).toBe(401);
      expect(sessionOf(answer)).toMatchObject({ maxAge: 0 });
    }
    expect((await asOperator(request(bearer(KEY)), settings, ok)).status).toBe(429);
  });

  it('says whether one is signed in without an error, and signs out only from the dashboard itself', async () => {
    const { settings } = rig();
    expect((await sessionState(request(), settings)).body).toEqual({ signed_in: false, ended: false });
    const signedIn = await signIn(request(bearer(KEY), undefined, 'POST'), settings);
    expect((await sessionState(request(withSession(signedIn)), settings)).body).toMatchObject({ signed_in: true, via: 'session' });
    const crossSite = await signOut(request({ ...withSession(signedIn), 'sec-fetch-site': 'cross-site' }, undefined, 'DELETE'), settings);
    expect(crossSite.status).toBe(403);
    expect(sessionOf(crossSite)).toBeUndefined();
    const signedOut = await signOut(request({ ...withSession(signedIn), 'sec-fetch-site': 'same-origin' }, undefined, 'DELETE'), settings);
    expect(signedOut.status).toBe(204);
    expect(sessionOf(signedOut)).toMatchObject({ value: '', maxAge: 0, httpOnly: true, secure: true, sameSite: 'Strict' });
    // Signing out ended it on the server: the cookie kept and sent again opens nothing.
    expect((await asOperator(request(withSession(signedIn)), settings, ok)).status).toBe(401);
    expect((await sessionState(request(withSession(signedIn)), settings)).body).toEqual({ signed_in: false, ended: true });
    expect((await signIn(request({ ...bearer(KEY), 'sec-fetch-site': 'same-site' }, undefined, 'POST'), settings)).status).toBe(403);
  });

  it('takes the key over a cookie when a request carries both, and checks nothing else', async () => {
    const { settings } = rig();
    const check = await checkOperator(request({ ...bearer(KEY), cookie: `${SESSION_COOKIE}=nonsense` }), settings);
    expect(check.ok && check.via).toBe('key');
  });
});
