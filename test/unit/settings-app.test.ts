import { describe, expect, it } from 'vitest';
import { describeProblems, readSettings, type SettingsResult } from '../../host/settings';

/** The least a start-up needs: the three keys, a queue and a store (the storage shapes are tested elsewhere). */
const base = {
  HASH_KEY: 'test-hash-key-0123456789abcdef',
  INGEST_KEY: 'test-ingest-key-0123456789',
  OPERATOR_KEY: 'test-operator-key-0123456789',
  AzureWebJobsStorage: 'UseDevelopmentStorage=true',
  STORE: 'memory',
};

const read = (overrides: Record<string, string | undefined>) => readSettings({ ...base, ...overrides });

function settingsOf(result: SettingsResult) {
  if (!result.ok) throw new Error(describeProblems(result.problems));
  return result.settings;
}

/** The settings a refusal names, and that it refused. */
function refused(result: SettingsResult): string[] {
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.problems.map((problem) => problem.setting);
}

describe('the app settings', () => {
  it('start with the three keys alone, every other app setting at its default', () => {
    const settings = settingsOf(read({}));
    expect(settings.IGNORED_PATHS).toEqual(['/api/admin', '/admin']);
    expect(settings.HIT_MAX_AGE_DAYS).toBe(7);
    expect(settings.TRUSTED_PROXY_HOPS).toBe(0);
    expect(settings.ALLOWED_ORIGINS).toEqual([]);
    expect(settings.SELF_NETWORKS).toEqual([]);
    expect(settings.SELF_AGENT_TAG).toBe('headcount-self');
    expect(settings.HITS_QUEUE).toBe('hits');
  });

  it("send mail through Communication Services only with both its endpoint and sender, and link to the app's own host in Azure", () => {
    const outbox = settingsOf(read({}));
    expect([outbox.EMAIL_ENDPOINT, outbox.EMAIL_OUTBOX, outbox.APP_URL]).toEqual([
      undefined,
      '.local-data/outbox',
      'http://localhost:7071',
    ]);
    expect(refused(read({ EMAIL_ENDPOINT: 'https://acs.example.communication.azure.com' }))).toEqual(['EMAIL_SENDER']);
    expect(refused(read({ EMAIL_SENDER: 'DoNotReply@example.azurecomm.net' }))).toEqual(['EMAIL_SENDER']);
    expect(refused(read({ EMAIL_ENDPOINT: 'http://acs.example', EMAIL_SENDER: 'DoNotReply@example.azurecomm.net' }))).toEqual([
      'EMAIL_ENDPOINT',
    ]);
    expect(settingsOf(read({ WEBSITE_HOSTNAME: 'func-api.azurewebsites.net' })).APP_URL).toBe('https://func-api.azurewebsites.net');
    expect(settingsOf(read({ WEBSITE_HOSTNAME: 'func-api.azurewebsites.net', APP_URL: 'https://stats.example' })).APP_URL).toBe(
      'https://stats.example',
    );
  });

  it('read an empty value as not set, so the default applies', () => {
    const settings = settingsOf(read({ IGNORED_PATHS: '', HIT_MAX_AGE_DAYS: '', TRUSTED_PROXY_HOPS: '' }));
    expect(settings.IGNORED_PATHS).toEqual(['/api/admin', '/admin']);
    expect(settings.HIT_MAX_AGE_DAYS).toBe(7);
    expect(settings.TRUSTED_PROXY_HOPS).toBe(0);
  });

  it('read lists split on commas with the spaces around entries trimmed', () => {
    const settings = settingsOf(
      read({
        ALLOWED_ORIGINS: 'https://site.example, http://localhost:8080',
        SELF_NETWORKS: '10.20.0.0/16 , 2001:db8::/48',
        IGNORED_PATHS: '/internal, /health',
        TRUSTED_PROXY_HOPS: '2',
        HIT_MAX_AGE_DAYS: '3',
        SELF_AGENT_TAG: 'my-probe',
      }),
    );
    expect(settings.ALLOWED_ORIGINS).toEqual(['https://site.example', 'http://localhost:8080']);
    expect(settings.SELF_NETWORKS).toEqual(['10.20.0.0/16', '2001:db8::/48']);
    expect(settings.IGNORED_PATHS).toEqual(['/internal', '/health']);
    expect(settings.TRUSTED_PROXY_HOPS).toBe(2);
    expect(settings.HIT_MAX_AGE_DAYS).toBe(3);
    expect(settings.SELF_AGENT_TAG).toBe('my-probe');
  });

  it.each(['HASH_KEY', 'INGEST_KEY', 'OPERATOR_KEY'])('stop when %s is missing, naming it', (name) => {
    const result = read({ [name]: undefined });
    expect(refused(result)).toEqual([name]);
    expect(result.ok || describeProblems(result.problems)).toContain(name);
  });

  it('stop when HASH_KEY is too short to be a secret', () => {
    expect(refused(read({ HASH_KEY: 'short' }))).toEqual(['HASH_KEY']);
  });

  it('have no built-in HASH_KEY: an empty one is missing', () => {
    expect(refused(read({ HASH_KEY: '' }))).toEqual(['HASH_KEY']);
  });

  it.each(['abc', '1.5', '-1', '11', 'two'])('stop on a malformed TRUSTED_PROXY_HOPS (%s), naming it', (value) => {
    expect(refused(read({ TRUSTED_PROXY_HOPS: value }))).toEqual(['TRUSTED_PROXY_HOPS']);
  });

  it.each(['https://site.example/path', 'site.example', 'ftp://site.example', 'https://site.example/', '*'])(
    'stop on a bad ALLOWED_ORIGINS entry (%s), naming it, even among good ones',
    (entry) => {
      expect(refused(read({ ALLOWED_ORIGINS: `https://good.example, ${entry}` }))).toEqual(['ALLOWED_ORIGINS']);
    },
  );

  it.each(['banana', '10.0.0.0/33', '10.0.0.1', '2001:db8::/129', '999.0.0.0/8'])(
    'stop on a bad SELF_NETWORKS CIDR (%s), naming it',
    (entry) => {
      expect(refused(read({ SELF_NETWORKS: `10.20.0.0/16,${entry}` }))).toEqual(['SELF_NETWORKS']);
    },
  );

  it.each(['admin', '/admin?x=1', '/ad min'])('stop on a bad IGNORED_PATHS entry (%s), naming it', (entry) => {
    expect(refused(read({ IGNORED_PATHS: `/api/admin,${entry}` }))).toEqual(['IGNORED_PATHS']);
  });

  it.each(['0', 'week', '2.5', '8'])(
    "stop on a malformed HIT_MAX_AGE_DAYS (%s: a day's secret lives at most 7 days past its day), naming it",
    (value) => {
      expect(refused(read({ HIT_MAX_AGE_DAYS: value }))).toEqual(['HIT_MAX_AGE_DAYS']);
    },
  );

  it('stop on a self tag too short to mean anything', () => {
    expect(refused(read({ SELF_AGENT_TAG: 'x' }))).toEqual(['SELF_AGENT_TAG']);
  });

  it('name every problem at once, one line each', () => {
    const result = read({ HASH_KEY: undefined, TRUSTED_PROXY_HOPS: 'abc', SELF_NETWORKS: 'banana' });
    expect(refused(result).sort()).toEqual(['HASH_KEY', 'SELF_NETWORKS', 'TRUSTED_PROXY_HOPS']);
    const text = result.ok ? '' : describeProblems(result.problems);
    for (const name of ['HASH_KEY', 'SELF_NETWORKS', 'TRUSTED_PROXY_HOPS']) expect(text).toMatch(new RegExp(`^  ${name}: `, 'm'));
  });
});

describe('whole-number settings take digits only', () => {
  it.each(['0x2', '1e1', '2 ', '-1', '1.5'])('TRUSTED_PROXY_HOPS=%j is refused, naming the setting', (value) => {
    expect(refused(read({ TRUSTED_PROXY_HOPS: value }))).toContain('TRUSTED_PROXY_HOPS');
  });

  it('reads digits as the number they spell', () => {
    expect(settingsOf(read({ TRUSTED_PROXY_HOPS: '2' })).TRUSTED_PROXY_HOPS).toBe(2);
  });
});
