import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { fixedClock } from '../../shared/core/ports/clock';
import type { Sent } from '../../shared/core/ports/mailer';
import { EMAIL_PK } from '../../shared/core/store/email';
import { episodeOf } from '../../shared/read/email/alerts';
import { MAIL_ATTEMPTS, sendOnce } from '../../shared/read/email/claims';

// A mail is claimed in the store before it is sent: a failed send is tried again by a later run, a few times; a claim
// held by a run in flight is left to it, one abandoned is taken over; an alert's episode moves only when its condition does.

const failing = (reason = 'the service answered 503'): Sent => ({ ok: false, reason });

describe('a mail claimed before it is sent', () => {
  it('is tried again after a failed send, then never sent twice', async () => {
    const { email } = memoryStore();
    const clock = fixedClock('2026-10-26T08:00:00Z');
    const sends: string[] = [];
    const send = (outcome: Sent) => async () => {
      sends.push(outcome.ok ? 'sent' : 'failed');
      return outcome;
    };
    expect(await sendOnce(email.claims, 'mail:weekly:2026-10-19:a', clock, send(failing()))).toBe('failed');
    expect((await email.claims.read('mail:weekly:2026-10-19:a'))?.doc).toMatchObject({
      state: 'failed',
      attempts: 1,
      reason: 'the service answered 503',
    });
    expect(await sendOnce(email.claims, 'mail:weekly:2026-10-19:a', clock, send({ ok: true }))).toBe('sent');
    expect(await sendOnce(email.claims, 'mail:weekly:2026-10-19:a', clock, send({ ok: true }))).toBe('taken');
    expect(sends).toEqual(['failed', 'sent']);
    expect((await email.claims.read('mail:weekly:2026-10-19:a'))?.doc).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it(`gives up after ${MAIL_ATTEMPTS} failed sends`, async () => {
    const { email } = memoryStore();
    const clock = fixedClock('2026-10-26T08:00:00Z');
    let tries = 0;
    const send = async () => {
      tries += 1;
      return failing();
    };
    for (let run = 0; run < MAIL_ATTEMPTS + 3; run += 1) await sendOnce(email.claims, 'mail:spike:blog:1:a', clock, send);
    expect(tries).toBe(MAIL_ATTEMPTS);
  });

  it('sends once when two runs claim it at the same time', async () => {
    const { email } = memoryStore();
    const clock = fixedClock('2026-10-26T08:00:00Z');
    let sends = 0;
    const send = async (): Promise<Sent> => {
      sends += 1;
      return { ok: true };
    };
    const outcomes = await Promise.all([1, 2, 3].map(() => sendOnce(email.claims, 'mail:monthly:2026-09-01:a', clock, send)));
    expect(sends).toBe(1);
    expect(outcomes.sort()).toEqual(['sent', 'taken', 'taken']);
  });

  it('leaves a claim still sending to its run, and takes over one abandoned for a quarter of an hour', async () => {
    const { email } = memoryStore();
    const clock = fixedClock('2026-10-26T08:00:00Z');
    const id = 'mail:confirm:a';
    await email.claims.create({
      id,
      pk: EMAIL_PK,
      kind: 'mail-claim',
      state: 'sending',
      attempts: 1,
      claimed_at: clock.now().toISOString(),
      ttl: 60,
    });
    const send = async (): Promise<Sent> => ({ ok: true });
    clock.advance(14 * 60_000);
    expect(await sendOnce(email.claims, id, clock, send)).toBe('taken');
    clock.advance(60_000);
    expect(await sendOnce(email.claims, id, clock, send)).toBe('sent');
    expect((await email.claims.read(id))?.doc).toMatchObject({ state: 'sent', attempts: 2 });
  });
});

describe("an alert's episode", () => {
  it('begins when its condition first holds, lasts while it holds, and a new one begins after it clears', async () => {
    const { email } = memoryStore();
    const now = new Date('2026-10-26T08:00:00Z');
    const id = 'alert:spike:blog';
    const seen = [];
    for (const holds of [false, true, true, true, false, false, true, true]) seen.push(await episodeOf(email.alerts, id, holds, now));
    expect(seen).toEqual([null, 1, 1, 1, null, null, 2, 2]);
    // Nothing is written while nothing changes.
    expect(await episodeOf(email.alerts, 'alert:spike:quiet', false, now)).toBeNull();
    expect(await email.alerts.read('alert:spike:quiet')).toBeNull();
  });

  it('records the day a drop was read, so the same day is not read twice', async () => {
    const { email } = memoryStore();
    const now = new Date('2026-10-26T08:00:00Z');
    expect(await episodeOf(email.alerts, 'alert:drop:blog', true, now, '2026-10-25')).toBe(1);
    expect((await email.alerts.read('alert:drop:blog'))?.doc).toMatchObject({ active: true, episode: 1, checked: '2026-10-25' });
    expect(await episodeOf(email.alerts, 'alert:drop:blog', false, now, '2026-10-26')).toBeNull();
    expect((await email.alerts.read('alert:drop:blog'))?.doc).toMatchObject({ active: false, episode: 1, checked: '2026-10-26' });
  });
});
