import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, newPass, PASS_MS, passOpens, passwordMatches, PASSWORD_COST } from '../../shared/read/links/secrets';

// A shared link's password is kept as its scrypt hash at OWASP's cost, the cost inside the hash, so a link made at an
// earlier cost still opens.

describe("a link's password", () => {
  it('is hashed with scrypt at N 2^17, r 8, p 1, and only the password verifies', async () => {
    expect(PASSWORD_COST.n).toBeGreaterThanOrEqual(2 ** 17);
    const kept = await hashPassword('correct horse battery');
    expect(kept).toMatchObject({ n: 2 ** 17, r: 8, p: 1 });
    expect(JSON.stringify(kept)).not.toContain('correct horse');
    expect(await passwordMatches('correct horse battery', kept)).toBe(true);
    expect(await passwordMatches('correct horse battery ', kept)).toBe(false);
  });

  it('verifies a hash kept at the earlier N 2^14 by the cost it carries', async () => {
    const salt = randomBytes(16);
    const hash = scryptSync('an older password', salt, 32, { N: 2 ** 14, r: 8, p: 1 });
    const kept = { salt: salt.toString('base64'), hash: hash.toString('base64'), n: 2 ** 14, r: 8, p: 1 };
    expect(await passwordMatches('an older password', kept)).toBe(true);
    expect(await passwordMatches('another password', kept)).toBe(false);
  });
});

describe("a link's pass, answered for a right password", () => {
  const key = 'a-hash-key-for-the-test';
  const now = Date.parse('2026-10-23T12:00:00Z');

  it('opens its own link until it runs out, and no other', () => {
    const pass = newPass(key, 'link:a', now);
    expect(passOpens(key, 'link:a', pass, now + PASS_MS - 1)).toBe(true);
    expect(passOpens(key, 'link:a', pass, now + PASS_MS)).toBe(false);
    expect(passOpens(key, 'link:b', pass, now)).toBe(false);
    expect(passOpens('another-key', 'link:a', pass, now)).toBe(false);
  });

  it('opens nothing once its time or its proof is changed', () => {
    const [until, mac] = newPass(key, 'link:a', now).split('.') as [string, string];
    expect(passOpens(key, 'link:a', `${Number(until) + 1}.${mac}`, now)).toBe(false);
    expect(passOpens(key, 'link:a', `${until}.${mac.slice(1)}A`, now)).toBe(false);
    // A far future time is refused even with its own proof, so no pass outlives the rule.
    expect(passOpens(key, 'link:a', newPass(key, 'link:a', now + PASS_MS), now)).toBe(false);
    for (const junk of ['', '.', 'x.y', `${until}`]) expect(passOpens(key, 'link:a', junk, now)).toBe(false);
  });
});
