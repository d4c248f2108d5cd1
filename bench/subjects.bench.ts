import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCosmos } from '../local/services';
import { fixedClock } from '../shared/core/ports/clock';
import { beaconScan } from '../shared/ingest/subjects/beacon';
import { fold } from '../shared/fold/fold';
import { keeper } from '../test/support/keeper';
import { scanRules } from '../shared/core/subjects/scan-rule';
import { freshLocalStore, keepInBatches } from './local-store';
import { queued } from '../test/support/hits';
import { callsA, costed } from './report';
import { DAY_SECRET, identityRules, quiet, seenRequest } from './settings';
import { withServices } from './stack';
import { HMAC_PERSON_IDS } from '../test/support/persons';

const rules = identityRules({ ignoredPaths: [] });

const freshStore = async (endpoint: string) => (await freshLocalStore(endpoint)).store;

/** Past the settle margin and the server's whole-second `_ts`. */
const settled = () => sleep(2_100);

/** Store calls to keep 1,000 subject scans (100 visitors, 10 subjects) in messages of `perMessage`, 8 at a time, and fold them once. */
async function keepingCost(endpoint: string, perMessage: number) {
  const store = await freshStore(endpoint);
  const clock = fixedClock('2026-10-23T23:00:00Z');
  const keep = keeper(store, clock);
  const at = (n: number) => new Date(Date.parse('2026-10-23T08:00:00Z') + Math.floor(n / 100) * 90_000).toISOString();
  const scans = Array.from({ length: 1000 }, (_, n) => queued(String(n % 100), at(n), { path: '/scan', subject: `tree-${n % 10}` }));
  const messages = Array.from({ length: Math.ceil(scans.length / perMessage) }, (_, m) => ({
    v: 1 as const,
    id: randomUUID(),
    hits: scans.slice(m * perMessage, (m + 1) * perMessage),
  }));
  const kept = await costed(store, () => keepInBatches(keep, messages, 8));
  await settled();
  const folded = await costed(store, () => fold({ store, clock, rules: scanRules(10, 60), lateDays: 7 }));
  if (!folded.result.ok) throw new Error(folded.result.reason);
  const summary = await store.subjects.summaries.read('tree-0');
  console.log(
    `  ${String(perMessage).padStart(3)} scans a message: keep ${callsA(kept.cost, 1000, 'a scan')}, ${kept.cost.conflicts} lost races, ${(1_000_000 / kept.ms).toFixed(0)} scans/s; ` +
      `fold ${callsA(folded.cost, 1000, 'a scan')} in ${folded.ms.toFixed(0)} ms (tree-0: ${summary?.doc.scans} scans, ${summary?.doc.unique} unique)`,
  );
}

/** Store operations the beacon makes to answer new or returning, in each identity mode. */
async function beaconCost(endpoint: string, mode: 'hash' | 'cookie') {
  const store = await freshStore(endpoint);
  const deps = { rules, persons: HMAC_PERSON_IDS, logger: quiet, subjects: { mode, store: store.subjects } };
  const seen = (n: number) => seenRequest('2026-10-23T10:00:00Z', `203.0.113.${n % 200}`, 'Mozilla/5.0 Firefox/131.0', '/scan', 'tree-1');
  const { cost, ms } = await costed(store, async () => {
    for (let n = 0; n < 200; n += 1) await beaconScan(null, seen(n), DAY_SECRET, true, deps);
  });
  console.log(
    `  ${mode} mode, a new visitor asking its status: ${((cost.reads + cost.writes) / 200).toFixed(2)} store operations a beacon (${(cost.writes / 200).toFixed(2)} writes), ${(ms / 200).toFixed(2)} ms each on the local server`,
  );
}

async function listCost(endpoint: string) {
  const store = await freshStore(endpoint);
  const clock = fixedClock('2026-10-23T23:00:00Z');
  const keep = keeper(store, clock);
  const hits = Array.from({ length: 500 }, (_, n) => queued(String(n), '2026-10-23T09:00:00.000Z', { network: 'x', subject: `s-${n}` }));
  for (let first = 0; first < hits.length; first += 50) await keep({ v: 1, id: randomUUID(), hits: hits.slice(first, first + 50) });
  await settled();
  const folded = await fold({ store, clock, rules: scanRules(10, 60), lateDays: 7 });
  if (!folded.ok) throw new Error(folded.reason);
  const listed = await costed(store, async () => {
    let continuation: string | null = null;
    let pages = 0;
    do {
      const page = await store.subjects.list({ sort: 'scans', order: 'desc', limit: 50, continuation });
      if (page === 'bad-continuation') throw new Error('the store refused its own continuation');
      continuation = page.continuation;
      pages += 1;
    } while (continuation);
    return pages;
  });
  console.log(
    `  the list of 500 subjects in pages of 50: ${listed.result} pages, ${listed.cost.queries} queries, ${(listed.ms / listed.result).toFixed(1)} ms a page on the local server`,
  );
}

/** `npm run bench subjects`: on the local Cosmos server (store.stats(): 1 call = 1 read, write or query). */
export async function run() {
  await withServices([startCosmos()], async (cosmos) => {
    console.log('1,000 subject scans (100 visitors, 10 subjects), kept then folded once:');
    for (const perMessage of [1, 50]) await keepingCost(cosmos.endpoint, perMessage);
    for (const mode of ['hash', 'cookie'] as const) await beaconCost(cosmos.endpoint, mode);
    await listCost(cosmos.endpoint);
  });
}
