import { createHmac, randomBytes } from 'node:crypto';

/** `hck_` and 192 bits, so a leaked one is recognisable in a log or a repository. */
export const newApiKey = (): string => `hck_${randomBytes(24).toString('base64url')}`;

/** Anything else is refused before any store read. */
export const API_KEY_SHAPE = /^hck_[A-Za-z0-9_-]{32}$/;

/** A label of its own, so it is no other use's key. */
const apiKeyKey = (hashKey: string) => createHmac('sha256', hashKey).update('api-key').digest();

export const apiKeyHash = (hashKey: string, key: string): string => createHmac('sha256', apiKeyKey(hashKey)).update(key).digest('hex');
