import { describe, expect, it } from 'vitest';
import { buildRoot } from '../../host/composition';
import { describeProblems, readSettings } from '../../host/settings';
import type { QueuedHit } from '../../shared/core/message';
import { ingest } from '../../shared/ingest/ingest';
import { keepHits } from '../../shared/keep/keep';
import { keepBySite } from '../../shared/keep/sites';
import { siteDeps } from '../../host/site-root';
import { testSecret } from '../support/day-secrets';
import { countries } from '../support/countries';
import {
  expectIngestWaitsForEveryStore,
  expectSameFigures,
  switchHistory,
  SWITCH_AGENT,
  SWITCH_DAYS,
  SWITCH_GOALS,
  SWITCH_SITES,
  type SwitchDeployment,
  type Visit,
} from '../support/switch-history';

const env = {
  HASH_KEY: 'test-hash-key-0123456789abcdef',
  INGEST_KEY: 'test-ingest-key-0123456789',
  OPERATOR_KEY: 'test-operator-key-0123456789',
  AzureWebJobsStorage: 'UseDevelopmentStorage=true',
  STORE: 'memory',
  SITES: SWITCH_SITES,
  GOALS: SWITCH_GOALS,
  PERSON_HASH_COST: '1',
};

/** Two sites and all sites, each in a memory store of its own, driven through the composition root's own use cases. */
function deploymentOf(): SwitchDeployment & { queued: QueuedHit[] } {
  const read = readSettings(env);
  if (!read.ok) throw new Error(describeProblems(read.problems));
  const at = { now: new Date(`${SWITCH_DAYS[0]}T12:00:00.000Z`) };
  const root = buildRoot(read.settings, { clock: { now: () => at.now }, countries, blob: null, newSecret: testSecret });
  const queued: QueuedHit[] = [];
  const seen = (one: Visit) => ({
    ...one,
    at: new Date(one.at),
    userAgent: SWITCH_AGENT,
    referrer: null,
    served_by: 'site',
    pageLoad: true,
    operator: false,
  });
  return {
    root,
    at,
    queued,
    async send(visits) {
      const hits: QueuedHit[] = [];
      const sender = {
        enqueue: async (batch: readonly QueuedHit[]) => (hits.push(...batch), { ok: true as const }),
        waiting: () => ({ requests: 0, hits: 0 }),
      };
      expect(await ingest(visits.map(seen), { ...root.receive, sender })).toMatchObject({ ok: true });
      queued.push(...hits);
      expect(
        await keepBySite({ v: 1, id: crypto.randomUUID(), hits }, siteDeps(await root.sites.current(), 'keep'), keepHits),
      ).toMatchObject({ ok: true });
      return hits;
    },
    settle: () => Promise.resolve(),
  };
}

describe('the switch to person ids as the composition root wires it, two sites and all sites', () => {
  it("counts as a deployment never switched, and the ingest sends derived ids only once every store's migration is done", async () => {
    const control = deploymentOf();
    await switchHistory(control, false);
    const moved = deploymentOf();
    await switchHistory(moved, true, (step, probe) => expectIngestWaitsForEveryStore(moved, step, probe));
    await expectSameFigures(moved, control);
    expect(control.queued.some((hit) => hit.person_derived === true)).toBe(false);
  });
});
