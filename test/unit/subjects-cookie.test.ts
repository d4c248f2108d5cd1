import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import type { SeenRequest } from '../../shared/ingest/classify';
import { memoryLogger } from '../../shared/core/ports/logger';
import { beaconScan } from '../../shared/ingest/subjects/beacon';
import { newVisitorCookie, presentedCookie, visitorCookieHash, VISITOR_COOKIE } from '../../shared/ingest/subjects/cookie';
import { derivePersonId } from '../../shared/core/identity/person-id';
import { HMAC_PERSON_IDS } from '../support/persons';
import { VISITOR_COOKIES_PK, visitorCookieId } from '../../shared/core/store/subjects';

/** A day's secret as ingest reads it from the store. */
const DAY_SECRET = 'b7'.repeat(32);

const UUID = '3b241101-e2bb-4255-8caf-4136c566a962';
const rules = { hashKey: 'test-hash-key-0123456789abcdef', selfNetworks: [], selfAgentTag: 'headcount-self', ignoredPaths: ['/api/admin'] };
const seen = (address: string, more: Partial<SeenRequest> = {}): SeenRequest => ({
  at: new Date('2026-10-23T10:00:00Z'),
  address,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
  path: '/t',
  referrer: null,
  served_by: 'site',
  pageLoad: true,
  subject: 'tree-1',
  operator: false,
  ...more,
});

describe('the visitor cookie', () => {
  it('takes only a UUID v4; anything else is refused as malformed', () => {
    expect(presentedCookie(null)).toEqual({ kind: 'absent' });
    expect(presentedCookie('other=1')).toEqual({ kind: 'absent' });
    expect(presentedCookie(`a=1; ${VISITOR_COOKIE}=${UUID.toUpperCase()}`)).toEqual({ kind: 'uuid', uuid: UUID });
    for (const bad of ['garbage', '3b241101-e2bb-1255-8caf-4136c566a962', `${UUID}x`, "'; DROP", '../x']) {
      expect(presentedCookie(`${VISITOR_COOKIE}=${bad}`), bad).toEqual({ kind: 'malformed' });
    }
  });

  it('is a fresh UUID v4, HttpOnly, Secure, SameSite=Lax, for two years', () => {
    const cookie = newVisitorCookie();
    expect(cookie).toMatchObject({ name: 'visitor_id', httpOnly: true, secure: true, sameSite: 'Lax', path: '/', maxAge: 63_072_000 });
    expect(presentedCookie(`visitor_id=${cookie.value}`).kind).toBe('uuid');
    expect(newVisitorCookie().value).not.toBe(cookie.value);
  });

  it('stands for a keyed hash with its own label that holds nothing of the UUID', () => {
    const hash = visitorCookieHash(rules.hashKey, UUID);
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(hash).not.toBe(visitorCookieHash('another-key-0123456789', UUID));
    for (const part of UUID.split('-')) expect(hash).not.toContain(part);
  });
});

describe('a beacon in cookie mode', () => {
  const deps = () => ({
    rules,
    persons: HMAC_PERSON_IDS,
    logger: memoryLogger(),
    subjects: { mode: 'cookie' as const, store: memoryStore().subjects },
  });

  it('without a cookie is counted under the person hash and offered a cookie linked to it; with it, the same visitor', async () => {
    const d = deps();
    const first = await beaconScan(null, seen('203.0.113.7'), DAY_SECRET, true, d);
    expect(first).toMatchObject({ ok: true, value: { status: 'new', cookies: [{ name: 'visitor_id' }] } });
    const uuid = first.ok ? first.value.cookies[0]!.value : '';
    // The same browser from another address: the cookie keeps it the same visitor.
    const again = await beaconScan(`visitor_id=${uuid}`, seen('198.51.100.9'), DAY_SECRET, true, d);
    expect(again).toMatchObject({ ok: true, value: { status: 'returning', cookies: [] } });
  });

  it('across the switch of person ids, a hit says its person is derived only when its cookie link does, and a link made from a derived hit says so', async () => {
    const store = memoryStore().subjects;
    const d = { ...deps(), persons: { of: (value: string) => derivePersonId(value, 1) }, subjects: { mode: 'cookie' as const, store } };
    const first = await beaconScan(null, seen('203.0.113.7'), DAY_SECRET, true, d);
    const uuid = first.ok ? first.value.cookies[0]!.value : '';
    const person = first.ok && first.value.classified.counted ? first.value.classified.hit.person : null;
    expect(await store.cookies.read(visitorCookieHash(rules.hashKey, uuid))).toMatchObject({ identity: person, derived: true });
    const again = await beaconScan(`visitor_id=${uuid}`, seen('198.51.100.9'), DAY_SECRET, true, d);
    expect(again.ok && again.value.classified).toMatchObject({ counted: true, hit: { person, person_derived: true } });
    // A link kept before the switch holds the old id, which keep-hits derives: the hit must not say derived.
    const old = 'a'.repeat(32);
    await store.cookies.create({
      id: visitorCookieId(visitorCookieHash(rules.hashKey, UUID)),
      pk: VISITOR_COOKIES_PK,
      kind: 'visitor-cookie',
      identity: old,
      ttl: 100,
    });
    const linked = await beaconScan(`visitor_id=${UUID}`, seen('198.51.100.9'), DAY_SECRET, true, d);
    expect(linked.ok && linked.value.classified).toMatchObject({ counted: true, hit: { person: old } });
    expect(linked.ok && linked.value.classified.counted && linked.value.classified.hit).not.toHaveProperty('person_derived');
  });

  it('a browser that blocks cookies stays its person hash: returning on its second scan, offered a cookie each time', async () => {
    const d = deps();
    expect(await beaconScan(null, seen('203.0.113.8'), DAY_SECRET, true, d)).toMatchObject({
      ok: true,
      value: { status: 'new', cookies: [{}] },
    });
    expect(await beaconScan(null, seen('203.0.113.8'), DAY_SECRET, true, d)).toMatchObject({
      ok: true,
      value: { status: 'returning', cookies: [{}] },
    });
  });

  it('a well-formed unknown cookie is a new visitor; a malformed one is refused, logged without its value, and replaced', async () => {
    const d = deps();
    await beaconScan(null, seen('203.0.113.9'), DAY_SECRET, true, d);
    expect(await beaconScan(`visitor_id=${UUID}`, seen('203.0.113.9'), DAY_SECRET, true, d)).toMatchObject({
      ok: true,
      value: { status: 'new', cookies: [] },
    });
    const garbage = await beaconScan('visitor_id=not-a-uuid', seen('203.0.113.9'), DAY_SECRET, true, d);
    expect(garbage).toMatchObject({ ok: true, value: { status: 'returning', cookies: [{ name: 'visitor_id' }] } });
    expect(d.logger.lines.some((line) => line.includes('malformed'))).toBe(true);
    expect(d.logger.lines.join('\n')).not.toContain('not-a-uuid');
  });

  it('the site reading itself gets no cookie and is never new', async () => {
    expect(await beaconScan(null, seen('127.0.0.1'), DAY_SECRET, true, deps())).toMatchObject({
      ok: true,
      value: { status: 'returning', cookies: [] },
    });
  });
});
