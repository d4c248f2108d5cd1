import { QueueClient } from '@azure/storage-queue';
import { afterAll, describe, expect, it } from 'vitest';
import { azureHitQueue } from '../../adapters/azure-hit-queue';
import { hitsMessageSchema, type QueuedHit } from '../../shared/core/message';
import type { HitQueue } from '../../shared/core/ports/queue';
import { testSecret } from '../support/day-secrets';
import { testEnv } from '../support/env';
import { containerOf } from '../support/cosmos';
import { settle, startTestHost, type TestHost } from '../support/host';
import { post } from '../support/http';
import {
  expectIngestWaitsForEveryStore,
  expectSameFigures,
  switchHistory,
  SWITCH_AGENT,
  SWITCH_DAYS,
  SWITCH_GOALS,
  SWITCH_SITES,
  type SwitchDeployment,
} from '../support/switch-history';

// Issue 51 (4): the switch to person ids as the host runs it, on Azurite and the local Cosmos server: hits posted to
// /api/hits, kept by keep-hits, each store folded with or without its migration, against a deployment never switched.

const hosts: TestHost[] = [];

/** A host of two sites; every message it queues is also kept here, decoded, to read the ids the ingest sent. */
async function deploymentOf(): Promise<SwitchDeployment> {
  const env = testEnv({ ALLOWED_ORIGINS: '', SITES: SWITCH_SITES, GOALS: SWITCH_GOALS });
  const at = { now: new Date(`${SWITCH_DAYS[0]}T12:00:00.000Z`) };
  const queue = azureHitQueue(new QueueClient(env.AzureWebJobsStorage!, env.HITS_QUEUE!));
  const sent: QueuedHit[] = [];
  const hitQueue: HitQueue = {
    sendAll: async (texts) => {
      for (const text of texts) {
        const read = hitsMessageSchema.safeParse(JSON.parse(Buffer.from(text, 'base64').toString('utf8')));
        if (read.success) sent.push(...read.data.hits);
      }
      return queue.sendAll(texts);
    },
  };
  // The host makes the container only for settings it made itself.
  await containerOf(env);
  const t = await startTestHost({ env, overrides: { clock: { now: () => at.now }, newSecret: testSecret, hitQueue } });
  hosts.push(t);
  return {
    root: t.root,
    at,
    async send(visits) {
      const from = sent.length;
      const hits = visits.map(({ at: when, address, site, path, subject }) => ({
        at: when,
        address,
        user_agent: SWITCH_AGENT,
        path,
        site,
        page_load: true,
        ...(subject === null ? {} : { subject }),
      }));
      expect((await post(`${t.host.url}/api/hits`, { hits }, { 'x-ingest-key': t.env.INGEST_KEY! })).status).toBe(202);
      await t.host.drain();
      return sent.slice(from);
    },
    settle: () => settle(t.root.settings.FOLD_SETTLE_SECONDS, t.env.COSMOS_ENDPOINT),
  };
}

describe('the switch to person ids through the host, two sites and all sites in Cosmos DB', () => {
  afterAll(() => Promise.all(hosts.map((t) => t.stop())));

  it("counts as a deployment never switched, and the ingest sends derived ids only once every store's migration is done", async () => {
    const control = await deploymentOf();
    await switchHistory(control, false);
    const moved = await deploymentOf();
    await switchHistory(moved, true, (step, probe) => expectIngestWaitsForEveryStore(moved, step, probe));
    await expectSameFigures(moved, control);
  });
});
