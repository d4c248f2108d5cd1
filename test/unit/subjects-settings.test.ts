import { describe, expect, it } from 'vitest';
import { readSettings } from '../../host/settings';

const base = {
  HASH_KEY: 'test-hash-key-0123456789abcdef',
  INGEST_KEY: 'test-ingest-key-0123456789',
  OPERATOR_KEY: 'test-operator-key-0123456789',
  AzureWebJobsStorage: 'UseDevelopmentStorage=true',
  STORE: 'memory',
};
const read = (overrides: Record<string, string>) => readSettings({ ...base, ...overrides });

describe('the subjects and identity settings', () => {
  it('default to the person hash, one counted scan a minute and a ten-second refresh window', () => {
    const result = read({});
    expect(
      result.ok && [result.settings.IDENTITY_MODE, result.settings.SUBJECT_SCAN_INTERVAL_SECONDS, result.settings.SUBJECT_REFRESH_SECONDS],
    ).toEqual(['hash', 60, 10]);
    const cookie = read({ IDENTITY_MODE: 'cookie', SUBJECT_SCAN_INTERVAL_SECONDS: '0', SUBJECT_REFRESH_SECONDS: '30' });
    expect(
      cookie.ok && [cookie.settings.IDENTITY_MODE, cookie.settings.SUBJECT_SCAN_INTERVAL_SECONDS, cookie.settings.SUBJECT_REFRESH_SECONDS],
    ).toEqual(['cookie', 0, 30]);
  });

  it('refuse another mode or a bad number, naming the setting', () => {
    for (const [setting, value] of [
      ['IDENTITY_MODE', 'uuid'],
      ['SUBJECT_SCAN_INTERVAL_SECONDS', '-1'],
      ['SUBJECT_SCAN_INTERVAL_SECONDS', '1.5'],
      ['SUBJECT_REFRESH_SECONDS', 'ten'],
    ] as const) {
      const result = read({ [setting]: value });
      expect(result.ok ? [] : result.problems.map((problem) => problem.setting), `${setting}=${value}`).toEqual([setting]);
    }
  });
});
