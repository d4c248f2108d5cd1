import type { Clock } from '../../core/ports/clock';
import type { Logger } from '../../core/ports/logger';
import type { Mailer } from '../../core/ports/mailer';
import { EMAIL_PK, type EmailRecipient, type EmailStore } from '../../core/store/email';
import { sendOnce } from './claims';
import { mailOf } from './letter';
import { emailTokenId, newEmailToken, recipientHash, recipientId, unsubscribeToken } from './tokens';

/** A confirmation link works this long. */
export const CONFIRM_DAYS = 7;

export interface MailDeps {
  email: EmailStore;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  hashKey: string;
  /** The app's own address, that links in mail start with. */
  appUrl: string;
}

/** A recipient who confirmed: the hash names their claims, the link ends their mail. */
export interface Confirmed {
  address: string;
  hash: string;
  unsubscribe: string;
}

const linkOf = (deps: MailDeps, action: 'confirm' | 'unsubscribe', token: string) =>
  `${deps.appUrl.replace(/\/$/, '')}/api/email/${action}?token=${token}`;

/** Mints a token kept only as its hash, and mails its link. */
async function sendConfirmation(site: string, recipient: EmailRecipient, deps: MailDeps) {
  const token = newEmailToken();
  const now = deps.clock.now();
  const expires = new Date(now.getTime() + CONFIRM_DAYS * 86_400_000).toISOString();
  const ttl = CONFIRM_DAYS * 86_400;
  const doc = {
    id: emailTokenId(deps.hashKey, token),
    pk: EMAIL_PK,
    kind: 'email-token',
    purpose: 'confirm',
    recipient: recipient.id,
  } as const;
  await deps.email.tokens.create({ ...doc, expires_at: expires, ttl });
  return deps.mailer.send(
    mailOf({
      to: recipient.address,
      subject: `Confirm headcount's mail for ${site}`,
      blocks: [{ lines: [`This address was added to ${site}'s reports and alerts on headcount.`, 'Nothing is sent until you confirm.'] }],
      action: { words: 'Confirm', url: linkOf(deps, 'confirm', token) },
    }),
  );
}

/** Each address on the list has a recipient; a new one is sent its link once, and the confirmed are answered. */
export async function confirmedRecipients(site: string, addresses: readonly string[], deps: MailDeps): Promise<Confirmed[]> {
  const confirmed: Confirmed[] = [];
  for (const address of addresses) {
    const hash = recipientHash(deps.hashKey, site, address);
    const id = recipientId(hash);
    let kept = await deps.email.recipients.read(id);
    if (kept === null) {
      const fresh: EmailRecipient = {
        id,
        pk: EMAIL_PK,
        kind: 'email-recipient',
        site,
        address,
        state: 'pending',
        changed_at: deps.clock.now().toISOString(),
      };
      await deps.email.recipients.create(fresh);
      kept = await deps.email.recipients.read(id);
    }
    if (kept === null) continue;
    const recipient = kept.doc;
    if (recipient.state === 'confirmed')
      confirmed.push({ address, hash, unsubscribe: linkOf(deps, 'unsubscribe', unsubscribeToken(deps.hashKey, hash)) });
    if (recipient.state !== 'pending') continue;
    const outcome = await sendOnce(deps.email.claims, `mail:confirm:${hash}`, deps.clock, () => sendConfirmation(site, recipient, deps));
    if (outcome === 'failed') deps.logger.warn('a confirmation could not be sent; a later run tries again', { function: 'email', site });
  }
  return confirmed;
}
