import { scrypt } from 'node:crypto';

/** log2 of scrypt's N; below it the IPv4 space × 100 agent families is less than years of one 16-core machine (docs/design.md, Identity). */
export const PERSON_HASH_PRODUCTION_COST = 12;

/** The lowest a test or a local run may ask for (N = 2). */
export const PERSON_HASH_LOWEST_COST = 1;

/** Within Node's default maxmem (32 MiB) up to log2 N = 14 with r = 8. */
export const PERSON_HASH_HIGHEST_COST = 14;

// r and p are fixed so the setting is one number; the salt only separates this use of scrypt from others.
const BLOCK_SIZE = 8;
const PARALLEL = 1;
const SALT = 'headcount person id';

/**
 * The person id: scrypt of the person's HMAC value (personHash), 32 hex. Memory-hard, so the address space cannot be
 * searched with the key in less than years; asynchronous, so it runs on the thread pool, never on the request's thread.
 */
export function derivePersonId(hmacValue: string, cost: number): Promise<string> {
  return new Promise((resolve, reject) => {
    scrypt(hmacValue, SALT, 16, { N: 2 ** cost, r: BLOCK_SIZE, p: PARALLEL }, (error, key) =>
      error ? reject(error) : resolve(key.toString('hex')),
    );
  });
}

export interface PersonIds {
  /** The person id of a person's HMAC value, derived once a day per process. */
  of(hmacValue: string): Promise<string>;
}
