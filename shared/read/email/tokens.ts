import { createHmac, randomBytes } from 'node:crypto';

/** 192 bits, as the API keys: anything else is refused before any store read. */
export const EMAIL_TOKEN_SHAPE = /^[A-Za-z0-9_-]{32}$/;

export const newEmailToken = (): string => randomBytes(24).toString('base64url');

/** A label of its own, so it is no other use's key. */
const emailKey = (hashKey: string) => createHmac('sha256', hashKey).update('email').digest();

const keyed = (hashKey: string, text: string) => createHmac('sha256', emailKey(hashKey)).update(text).digest();

/** A token is kept only as this, so the store never holds a link that works. */
export const emailTokenId = (hashKey: string, token: string): string => `email-token:${keyed(hashKey, `token|${token}`).toString('hex')}`;

/** The hex part names the recipient in every claim of theirs. */
export const recipientHash = (hashKey: string, site: string, address: string): string =>
  keyed(hashKey, `recipient|${site}|${address.toLowerCase()}`).toString('hex');

export const recipientId = (hash: string): string => `recipient:${hash}`;

/** Made again for each mail, so every mail carries the link while only its hash is kept. */
export const unsubscribeToken = (hashKey: string, hash: string): string =>
  keyed(hashKey, `unsubscribe|${hash}`).subarray(0, 24).toString('base64url');
