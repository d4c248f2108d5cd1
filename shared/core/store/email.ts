import type { Conditional } from './documents';

/** Kept with the first site's documents, beside the configuration that names the recipients. */
export const EMAIL_PK = 'email';

export type RecipientState = 'pending' | 'confirmed' | 'unsubscribed';

/** One address on one site's list: mail goes to it only once it is confirmed, and never after it unsubscribes. */
export interface EmailRecipient {
  id: string;
  pk: typeof EMAIL_PK;
  kind: 'email-recipient';
  site: string;
  address: string;
  state: RecipientState;
  changed_at: string;
}

/** A link's token, kept only as its keyed hash: the id. */
export interface EmailToken {
  id: string;
  pk: typeof EMAIL_PK;
  kind: 'email-token';
  purpose: 'confirm' | 'unsubscribe';
  recipient: string;
  /** Checked on use, since the local stand-in keeps what Cosmos DB's TTL would delete. */
  expires_at: string | null;
  ttl: number;
}

/** A mail claimed before it is sent, so two runs never both send it; a failed send is tried again, a few times. */
export interface MailClaim {
  id: string;
  pk: typeof EMAIL_PK;
  kind: 'mail-claim';
  state: 'sending' | 'sent' | 'failed';
  attempts: number;
  claimed_at: string;
  reason?: string;
  ttl: number;
}

/** Whether a site's alert is in an episode, and which: a mail goes once an episode. */
export interface AlertState {
  id: string;
  pk: typeof EMAIL_PK;
  kind: 'alert-state';
  active: boolean;
  episode: number;
  changed_at: string;
  /** A drop is read once a day: the day last read. */
  checked?: string;
}

export interface EmailStore {
  recipients: Conditional<EmailRecipient, [id: string]>;
  tokens: Conditional<EmailToken, [id: string]>;
  claims: Conditional<MailClaim, [id: string]>;
  alerts: Conditional<AlertState, [id: string]>;
}
