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

/** How long a right password opens its link without being checked again. */
export const PASS_MS = 12 * 3_600_000;

const passMac = (hashKey: string, link: string, until: number) =>
  createHmac('sha256', linkKey(hashKey)).update(`pass|${link}|${until}`).digest('base64url');

/** Proof that a link's password was right, until a time: a viewer's later reads skip scrypt's 128 MB. */
export const newPass = (hashKey: string, link: string, nowMs: number): string => {
  const until = nowMs + PASS_MS;
  return `${until}.${passMac(hashKey, link, until)}`;
};

export function passOpens(hashKey: string, link: string, pass: string, nowMs: number): boolean {
  const [untilText = '', mac = ''] = pass.split('.');
  const until = Number(untilText);
  if (!/^\d{1,15}$/.test(untilText) || until <= nowMs || until > nowMs + PASS_MS) return false;
  const want = Buffer.from(passMac(hashKey, link, until));
  const given = Buffer.from(mac);
  return given.length === want.length && timingSafeEqual(given, want);
}

/** OWASP's scrypt: 128 MB of memory a check. A hash keeps its own cost, so one made at another cost still verifies. */
export const PASSWORD_COST = { n: 2 ** 17, r: 8, p: 1 } as const;

/** Room for the cost above: scrypt takes 128 × N × r bytes. */
const MAX_MEMORY = 2 * 128 * PASSWORD_COST.n * PASSWORD_COST.r;

const derive = (password: string, salt: Buffer, cost: { n: number; r: number; p: number }) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, 32, { N: cost.n, r: cost.r, p: cost.p, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, PASSWORD_COST);
  return { salt: salt.toString('base64'), hash: hash.toString('base64'), ...PASSWORD_COST };
}

export async function passwordMatches(password: string, kept: PasswordHash): Promise<boolean> {
  const hash = await derive(password, Buffer.from(kept.salt, 'base64'), kept);
  const want = Buffer.from(kept.hash, 'base64');
  return hash.length === want.length && timingSafeEqual(hash, want);
}
