import type { Clock } from '../../core/ports/clock';
import type { Sent } from '../../core/ports/mailer';
import type { Versioned } from '../../core/store/documents';
import { EMAIL_PK, type EmailStore, type MailClaim } from '../../core/store/email';

/** A mail that failed this often is given up, and the log says so. */
export const MAIL_ATTEMPTS = 5;

/** A claim still sending after this long is a run that died mid-send, so a later run tries again. */
const ABANDONED_MS = 15 * 60_000;

/** Long past any period a claim could be asked again for. */
const CLAIM_TTL_SECONDS = 400 * 86_400;

export type SendOutcome = 'sent' | 'failed' | 'taken';

/** Creates the claim, or takes over a failed or abandoned one; null when another run holds it or it is done. */
async function claim(claims: EmailStore['claims'], id: string, now: Date): Promise<Versioned<MailClaim> | null> {
  const at = now.toISOString();
  const kept = await claims.read(id);
  if (kept === null) {
    const fresh: MailClaim = {
      id,
      pk: EMAIL_PK,
      kind: 'mail-claim',
      state: 'sending',
      attempts: 1,
      claimed_at: at,
      ttl: CLAIM_TTL_SECONDS,
    };
    if ((await claims.create(fresh)) === 'exists') return null;
  } else {
    const { doc } = kept;
    const open = doc.state === 'failed' || (doc.state === 'sending' && now.getTime() - Date.parse(doc.claimed_at) >= ABANDONED_MS);
    if (!open || doc.attempts >= MAIL_ATTEMPTS) return null;
    const again: MailClaim = { ...doc, state: 'sending', attempts: doc.attempts + 1, claimed_at: at };
    if ((await claims.replace(again, kept.etag)) === 'stale') return null;
  }
  return claims.read(id);
}

/** Claimed in the store before it is sent, so two runs at once or one run twice send it once. */
export async function sendOnce(claims: EmailStore['claims'], id: string, clock: Clock, send: () => Promise<Sent>): Promise<SendOutcome> {
  const held = await claim(claims, id, clock.now());
  if (held === null) return 'taken';
  const sent = await send();
  const { reason: _reason, ...doc } = held.doc;
  const done: MailClaim = sent.ok ? { ...doc, state: 'sent' } : { ...doc, state: 'failed', reason: sent.reason.slice(0, 300) };
  // A stale claim was taken over as abandoned; that run's outcome stands.
  await claims.replace(done, held.etag);
  return sent.ok ? 'sent' : 'failed';
}
