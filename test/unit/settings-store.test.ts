import { describe, expect, it } from 'vitest';
import { rootFromEnvironment, storeFor } from '../../host/composition';
import { dashboardBanner, LOCAL_COSMOS_NAME, localCosmosName } from '../../local/banner';
import { cosmosStore } from '../../adapters/cosmos/store';
import { cosmosContainer } from '../../adapters/cosmos/client';
import { describeProblems, readSettings, type SettingsResult } from '../../host/settings';
import { AZURE_SHAPE } from '../infra/azure-shape';

// Where the records are kept is asked for by name: Cosmos DB at COSMOS_ENDPOINT, or memory only when STORE=memory
// says so, and never in Azure (where the platform sets WEBSITE_INSTANCE_ID).

const keys = {
  HASH_KEY: 'test-hash-key-0123456789abcdef',
  INGEST_KEY: 'test-ingest-key-0123456789',
  OPERATOR_KEY: 'test-operator-key-0123456789',
  AzureWebJobsStorage: 'UseDevelopmentStorage=true',
};
const LOCAL_COSMOS = { COSMOS_ENDPOINT: 'http://127.0.0.1:8081', COSMOS_KEY: 'local-key' };
const without = (env: Record<string, string>, ...names: string[]) =>
  Object.fromEntries(Object.entries(env).filter(([name]) => !names.includes(name)));

function refused(result: SettingsResult): Record<string, string> {
  if (result.ok) throw new Error('the settings were accepted');
  return Object.fromEntries(result.problems.map((problem) => [problem.setting, problem.message]));
}

describe('the store is asked for by name', () => {
  it('is Cosmos DB by default, and a missing endpoint is refused naming COSMOS_ENDPOINT, never read as memory', () => {
    expect(readSettings({ ...keys, ...LOCAL_COSMOS }).ok && readSettings({ ...keys, ...LOCAL_COSMOS })).toMatchObject({
      settings: { STORE: 'cosmos' },
    });
    expect(refused(readSettings(keys)).COSMOS_ENDPOINT).toMatch(/is required.*STORE=memory/);
  });

  it('is memory only with STORE=memory, and says so in its source: lost on restart', () => {
    const read = readSettings({ ...keys, STORE: 'memory' });
    if (!read.ok) throw new Error(describeProblems(read.problems));
    expect(storeFor(read.settings).source).toMatch(/^kept in memory \(lost on restart\)/);
  });

  it('refuses memory beside a Cosmos DB setting, which would be ignored', () => {
    expect(Object.keys(refused(readSettings({ ...keys, ...LOCAL_COSMOS, STORE: 'memory' })))).toEqual(['STORE']);
    expect(refused(readSettings({ ...keys, STORE: 'disk' })).STORE).toMatch(/cosmos.*memory/);
  });
});

describe('in Azure (WEBSITE_INSTANCE_ID set) start-up fails closed', () => {
  const azure = { ...AZURE_SHAPE, WEBSITE_INSTANCE_ID: '8a2f1c0e4b5d6e7f' };

  it('starts with COSMOS_ENDPOINT', () => {
    expect(readSettings(azure).ok).toBe(true);
  });

  it('stops without COSMOS_ENDPOINT, naming it, instead of counting in memory', () => {
    const problems = refused(readSettings(without(azure, 'COSMOS_ENDPOINT', 'COSMOS_CLIENT_ID')));
    expect(Object.keys(problems)).toEqual(['COSMOS_ENDPOINT']);
    expect(problems.COSMOS_ENDPOINT).toMatch(/required in Azure \(WEBSITE_INSTANCE_ID is set\)/);
    expect(() => rootFromEnvironment(without(azure, 'COSMOS_ENDPOINT', 'COSMOS_CLIENT_ID'))).toThrow(
      /headcount cannot start[\s\S]*COSMOS_ENDPOINT: is required in Azure/,
    );
  });

  it('stops with STORE=memory, naming it, even when asked for by name', () => {
    const problems = refused(readSettings({ ...without(azure, 'COSMOS_ENDPOINT', 'COSMOS_CLIENT_ID'), STORE: 'memory' }));
    expect(Object.keys(problems).sort()).toEqual(['COSMOS_ENDPOINT', 'STORE']);
    expect(problems.STORE).toMatch(/refused in Azure/);
    expect(Object.keys(refused(readSettings({ ...azure, STORE: 'memory' })))).toContain('STORE');
  });

  it('is told by the platform alone: the same settings without WEBSITE_INSTANCE_ID may keep memory locally', () => {
    expect(readSettings({ ...without(AZURE_SHAPE, 'COSMOS_ENDPOINT', 'COSMOS_CLIENT_ID'), STORE: 'memory' }).ok).toBe(true);
  });
});

describe('the source names the account it reads', () => {
  const container = cosmosContainer({ endpoint: 'http://127.0.0.1:1', auth: { key: 'k' }, database: 'headcount', container: 'activity' });

  it('Azure Cosmos DB unless told, the local stand-in when the local host says so', () => {
    expect(cosmosStore(container).source).toBe('kept in Azure Cosmos DB (headcount/activity) with no expiry for people');
    expect(cosmosStore(container, { settleSeconds: 1, name: LOCAL_COSMOS_NAME }).source).toBe(
      'kept in the local Cosmos DB stand-in (headcount/activity) with no expiry for people',
    );
    expect(cosmosStore(container, { settleSeconds: 1, name: LOCAL_COSMOS_NAME }).activityDays.retention).toBe(
      'kept in the local Cosmos DB stand-in with no expiry',
    );
    expect(localCosmosName('http://127.0.0.1:8081')).toBe(LOCAL_COSMOS_NAME);
    expect(localCosmosName('https://cosmos-example.documents.azure.com:443/')).toBeUndefined();
  });
});

describe("npm start's banner", () => {
  it('prints the dashboard, how to fill it, and why your own browsing is not counted; the example key only', () => {
    const lines = dashboardBanner({
      url: 'http://127.0.0.1:7071',
      plainPort: 7071,
      operatorKey: 'local-only-operator-key-0001',
      allowedOrigins: ['http://localhost:8080'],
      sites: undefined,
      countedAs: null,
    });
    const text = lines.join('\n');
    expect(text).toContain('http://127.0.0.1:7071/api/admin');
    expect(text).toContain('local-only-operator-key-0001');
    expect(text).toContain('npm run simulate ');
    expect(text).toMatch(
      /not counted: a request from loopback is the site reading itself, never a person \(npm start -- --count-me counts them\)/,
    );
    const own = dashboardBanner({
      url: 'http://127.0.0.1:7072',
      plainPort: 7071,
      operatorKey: 'my-own-secret-operator-key',
      allowedOrigins: [],
      sites: undefined,
      countedAs: '192.168.1.20',
    }).join('\n');
    expect(own).not.toContain('my-own-secret-operator-key');
    expect(own).toContain('npm run simulate -- --port 7072');
    expect(own).toContain('are counted (--count-me): a request from loopback is seen as from 192.168.1.20');
  });

  it('names SITES, never ALLOWED_ORIGINS, when SITES is set (start-up refuses ALLOWED_ORIGINS beside it)', () => {
    const banner = (sites: { name: string; origins: string[] }[]) =>
      dashboardBanner({ url: 'http://127.0.0.1:7071', plainPort: 7071, operatorKey: 'k', allowedOrigins: [], sites, countedAs: null }).join(
        '\n',
      );
    const served = banner([
      { name: 'api.example', origins: [] },
      { name: 'blog.example', origins: ['https://blog.example'] },
    ]);
    expect(served).toContain('on a page of https://blog.example (SITES, site blog.example)');
    expect(served).not.toContain('ALLOWED_ORIGINS');
    const none = banner([{ name: 'api.example', origins: [] }]);
    expect(none).toContain('give it its origin in SITES');
    expect(none).not.toContain('ALLOWED_ORIGINS');
  });
});
