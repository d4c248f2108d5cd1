import type { QueuedHit } from '../../shared/core/message';

/** A 32-hex stand-in for a hash: the label's first 16 characters (padded with dots) in hex, so a fixture's hash reads back as its label. */
export const labelHex = (label: string) => Buffer.from(label.padEnd(16, '.')).subarray(0, 16).toString('hex');

/** The person hash `queued` gives a person's name. */
export const personHash = (person: string) => labelHex(`p${person}`);

/** A hashed hit as the queue carries it, by a person's name (null: the site itself); the keepers never read the hashes back. */
export function queued(person: string | null, at: string, more: Partial<QueuedHit> = {}): QueuedHit {
  return {
    at,
    token: labelHex(`t${person ?? 'self'}${at.slice(0, 10)}`),
    person: person === null ? null : personHash(person),
    network: '203.0.113.x',
    path: '/',
    store: 'site',
    bot: false,
    self: person === null,
    source: null,
    subject: null,
    ...more,
  };
}
