import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readSettings, strongKey, type SettingsResult } from '../../host/settings';
import { AZURE_SHAPE } from '../infra/azure-shape';

// In Azure (WEBSITE_INSTANCE_ID set) the keys a guesser could try are refused below 32 random bytes; HASH_KEY never
// is, since replacing it starts every count again; and locally the example's short keys still start.

const azure = { ...AZURE_SHAPE, WEBSITE_INSTANCE_ID: '8a2f1c0e4b5d6e7f' };

function refused(result: SettingsResult): Record<string, string> {
  if (result.ok) throw new Error('the settings were accepted');
  return Object.fromEntries(result.problems.map((problem) => [problem.setting, problem.message]));
}

describe('the strength of OPERATOR_KEY and INGEST_KEY', () => {
  it('takes 32 random bytes as the usual commands write them', () => {
    for (let i = 0; i < 20; i += 1) {
      const bytes = randomBytes(32);
      for (const key of [bytes.toString('base64url'), bytes.toString('base64'), bytes.toString('hex')]) expect(strongKey(key)).toBe(true);
    }
  });

  it('refuses anything shorter, a hex key under 64 digits, one character repeated, and words', () => {
    expect(strongKey(randomBytes(31).toString('base64url'))).toBe(false);
    expect(strongKey(randomBytes(24).toString('hex'))).toBe(false);
    expect(strongKey('a'.repeat(80))).toBe(false);
    expect(strongKey('abababababababababababababababababababababababab')).toBe(false);
    expect(strongKey('correct horse battery staple is a fine old passphrase')).toBe(false);
    expect(strongKey('test-operator-key-0123456789')).toBe(false);
  });

  it('stops start-up in Azure, naming the setting and the command that makes one', () => {
    const problems = refused(readSettings({ ...azure, OPERATOR_KEY: 'test-operator-key-0123456789', INGEST_KEY: 'short' }));
    expect(Object.keys(problems).sort()).toEqual(['INGEST_KEY', 'OPERATOR_KEY']);
    expect(problems.OPERATOR_KEY).toMatch(/weaker than 32 random bytes, which Azure refuses \(WEBSITE_INSTANCE_ID is set\)/);
    expect(problems.OPERATOR_KEY).toContain("randomBytes(32).toString('base64url')");
    expect(problems.INGEST_KEY).toContain('openssl rand -base64 32');
  });

  it('never refuses HASH_KEY for it, and outside Azure the local keys start as they are', () => {
    expect(readSettings({ ...azure, HASH_KEY: 'test-hash-key-0123456789abcdef' }).ok).toBe(true);
    const local = { ...AZURE_SHAPE, OPERATOR_KEY: 'test-operator-key-0123456789', INGEST_KEY: 'test-ingest-key-0123456789' };
    expect(readSettings(local).ok).toBe(true);
  });
});
