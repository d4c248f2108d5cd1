import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Container } from '@azure/cosmos';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startCosmos, type CosmosServer } from '../../local/services';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { AGENTS, post } from '../support/http';

// The local Cosmos server kept in a file, in this process: what is saved at stop is loaded at the next start with
// every document's `_rid`, `_etag` and `_ts` as they were, so the fold, which reads writes after the `_ts` watermark it
// kept, folds the facts kept before the restart once, and counts nothing twice. Its clock is the tests' movable one,
// moved by each fold rather than waited for; loaded, it starts no earlier than the latest `_ts` it loaded.

const hit = (address: string, agent: string, path: string) => ({ address, user_agent: agent, path, page_load: true });
const FIRST = [
  hit('203.0.113.10', AGENTS.chromeWindows, '/'),
  hit('203.0.113.11', AGENTS.firefoxLinux, '/about'),
  hit('66.249.66.1', AGENTS.googlebot, '/'),
];
const SECOND = [
  hit('198.51.100.41', AGENTS.firefoxLinux, '/'),
  hit('203.0.113.70', AGENTS.safariIphone, '/resume'),
  hit('203.0.113.10', AGENTS.chromeWindows, '/about'),
];

type Marks = Map<string, { _rid: string; _etag: string; _ts: number }>;

async function watermarksOf(container: Container): Promise<Marks> {
  const { resources } = await container.items
    .query<{ id: string; pk: string; _rid: string; _etag: string; _ts: number }>('SELECT * FROM c')
    .fetchAll();
  return new Map(resources.map(({ id, pk, _rid, _etag, _ts }) => [`${pk}|${id}`, { _rid, _etag, _ts }]));
}

describe('the local Cosmos server kept on disk', () => {
  const folder = mkdtempSync(join(tmpdir(), 'headcount-cosmos-'));
  const file = join(folder, 'cosmos.json');
  let cosmos: CosmosServer | undefined;
  let t: TestHost | undefined;
  afterAll(async () => {
    await t?.stop();
    await cosmos?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('loads what it saved with each _rid, _etag and _ts, and a fold after the restart neither refolds nor misses', async () => {
    const port = await freePort();
    cosmos = await startCosmos({ port, file, movableClock: true });
    expect(cosmos.loaded).toBeNull();
    t = await startTestHost({ env: { COSMOS_ENDPOINT: cosmos.endpoint } });
    const container = await containerOf(t.env);
    const people = async () =>
      await (await fetch(`${t!.host.url}/api/admin/visitors/people`, { headers: { 'x-operator-key': t!.env.OPERATOR_KEY! } })).json();
    const send = async (hits: unknown[]) => {
      expect((await post(`${t!.host.url}/api/hits`, { hits }, { 'x-ingest-key': t!.env.INGEST_KEY! })).status).toBe(202);
      await t!.host.drain();
    };

    await send(FIRST);
    await t.fold();
    expect(await people()).toMatchObject({ people_all_time: 2, scanners_left_out: 1 });
    // Kept, not yet folded: the facts wait for the fold on the other side of the restart.
    await send(SECOND);
    const watermarks = await watermarksOf(container);

    await cosmos.stop();
    expect(readdirSync(folder)).toEqual(['cosmos.json']);
    cosmos = await startCosmos({ port, file, movableClock: true });
    expect(cosmos.loaded).toBe(watermarks.size);
    expect(await watermarksOf(container)).toEqual(watermarks);

    expect(await people(), 'nothing folded yet of the second hits').toMatchObject({ people_all_time: 2 });
    await t.fold();
    const after = await people();
    expect(after).toMatchObject({ people_all_time: 4, scanners_left_out: 1, visits: { all_time: 4 } });
    await t.fold();
    expect(await people()).toEqual(after);

    // Documents made after the load get resource ids of their own: the counters were loaded too.
    const rids = [...(await watermarksOf(container)).values()].map((watermark) => watermark._rid);
    expect(new Set(rids).size).toBe(rids.length);
    expect(rids.length).toBeGreaterThan(watermarks.size);
    // A partition-scoped query still reads its partition alone after a load.
    const { resources } = await container.items.query('SELECT * FROM c', { partitionKey: 'visitors' }).fetchAll();
    expect(resources.every((doc: any) => doc.pk === 'visitors')).toBe(true);
  });

  it('ignores a save a crash cut off and refuses a file that is not a saved account', async () => {
    const port = await freePort();
    const other = mkdtempSync(join(tmpdir(), 'headcount-cosmos-'));
    const saved = join(other, 'cosmos.json');
    try {
      const first = await startCosmos({ port, file: saved });
      await fetch(`${first.endpoint}/dbs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'kept' }),
      });
      await first.stop();
      // What a save killed mid-write leaves: a temporary file, cut short. The rename never happened.
      writeFileSync(`${saved}.12345.saving`, '{"v":1,"saved_at":"2026-');
      const second = await startCosmos({ port, file: saved });
      const dbs = (await (await fetch(`${second.endpoint}/dbs`)).json()) as { Databases: Array<{ id: string }> };
      expect(dbs.Databases.map((db) => db.id)).toEqual(['kept']);
      expect(existsSync(`${saved}.12345.saving`)).toBe(false);
      await second.stop();

      writeFileSync(saved, '{"not":"a snapshot"}');
      await expect(startCosmos({ port, file: saved })).rejects.toThrow(/cosmos\.json is not a saved local Cosmos account.*--fresh/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
