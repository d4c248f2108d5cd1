import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { PasswordHash } from '../../core/store/links';

/** 192 bits. */
export const newToken = (): string => randomBytes(24).toString('base64url');

/** It opens nothing. */
export const newRef = (): string => randomBytes(8).toString('hex');

/** Anything else is refused before any store read. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32}$/;

/** A label of its own, so it is no other use's key. */
const linkKey = (hashKey: string) => createHmac('sha256', hashKey).update('shared-link-key').digest();

export const tokenHash = (hashKey: string, token: string): string => createHmac('sha256', linkKey(hashKey)).update(token).digest('hex');

/** 16 MB of memory a check, so a guess costs what it costs the server. */
const COST = { n: 2 ** 14, r: 8, p: 1 } as const;

const derive = (password: string, salt: Buffer, cost: { n: number; r: number; p: number }) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, 32, { N: cost.n, r: cost.r, p: cost.p, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, COST);
  return { salt: salt.toString('base64'), hash: hash.toString('base64'), ...COST };
}

export async function passwordMatches(password: string, kept: PasswordHash): Promise<boolean> {
  const hash = await derive(password, Buffer.from(kept.salt, 'base64'), kept);
  const want = Buffer.from(kept.hash, 'base64');
  return hash.length === want.length && timingSafeEqual(hash, want);
}
