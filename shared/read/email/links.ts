import type { Guesses } from '../../core/guesses';
import type { Clock } from '../../core/ports/clock';
import { retryConditionalWrite } from '../../core/store/conditional-write';
import { EMAIL_PK, type EmailRecipient, type EmailStore, type EmailToken, type RecipientState } from '../../core/store/email';
import { EMAIL_TOKEN_SHAPE, emailTokenId, recipientHash, unsubscribeToken } from './tokens';

export interface EmailLinkDeps {
  email: EmailStore;
  guesses: Guesses;
  clock: Clock;
  hashKey: string;
}

/** What the link's page says. */
export interface EmailPage {
  status: number;
  title: string;
  text: string;
}

const NOT_VALID: EmailPage = { status: 404, title: 'Link not valid', text: 'This link is not valid, or it has expired.' };

const waiting = (seconds: number): EmailPage => ({
  status: 429,
  title: 'Too many tries',
  text: `Too many wrong links from this address; try again in ${seconds} seconds.`,
});

const DONE: Record<EmailToken['purpose'], EmailPage> = {
  confirm: {
    status: 200,
    title: 'Confirmed',
    text: 'This address will receive the reports and alerts set for the site. Each mail has a link to stop them.',
  },
  unsubscribe: { status: 200, title: 'Unsubscribed', text: 'This address will receive no more mail for the site.' },
};

/** Confirming makes the unsubscribe link's hash, which every later mail's link is checked against. */
async function follow(token: EmailToken, deps: EmailLinkDeps): Promise<void> {
  const now = deps.clock.now().toISOString();
  const state: RecipientState = token.purpose === 'confirm' ? 'confirmed' : 'unsubscribed';
  let recipient: EmailRecipient | null = null;
  await retryConditionalWrite(
    deps.email.recipients,
    [token.recipient],
    async (current) => {
      recipient = current;
      // An unsubscribed address stays so: an old confirmation link cannot start its mail again.
      if (current === null || current.state === state || current.state === 'unsubscribed') return null;
      return { ...current, state, changed_at: now };
    },
    'an email recipient',
  );
  const kept = recipient as EmailRecipient | null;
  if (token.purpose !== 'confirm' || kept === null) return;
  const hash = recipientHash(deps.hashKey, kept.site, kept.address);
  const id = emailTokenId(deps.hashKey, unsubscribeToken(deps.hashKey, hash));
  await deps.email.tokens.create({
    id,
    pk: EMAIL_PK,
    kind: 'email-token',
    purpose: 'unsubscribe',
    recipient: kept.id,
    expires_at: null,
    ttl: -1,
  });
}

/** A token is a guess: counted before it is checked, so a wrong one answers as an expired one, and many wait. */
export async function followEmailLink(
  purpose: EmailToken['purpose'],
  token: string,
  address: string | null,
  deps: EmailLinkDeps,
): Promise<EmailPage> {
  let found: EmailToken | null = null;
  const outcome = await deps.guesses.checked('email-link', address, async () => {
    if (!EMAIL_TOKEN_SHAPE.test(token)) return false;
    const kept = await deps.email.tokens.read(emailTokenId(deps.hashKey, token));
    const doc = kept?.doc ?? null;
    const live = doc !== null && (doc.expires_at === null || Date.parse(doc.expires_at) > deps.clock.now().getTime());
    found = live && doc.purpose === purpose ? doc : null;
    return found !== null;
  });
  if (outcome.outcome === 'waiting') return waiting(outcome.wait);
  if (outcome.outcome === 'wrong' || found === null) return NOT_VALID;
  await follow(found, deps);
  return DONE[purpose];
}
