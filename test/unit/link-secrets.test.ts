import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, passwordMatches, PASSWORD_COST } from '../../shared/read/links/secrets';

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
