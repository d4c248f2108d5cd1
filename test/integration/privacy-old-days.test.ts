import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Container } from '@azure/cosmos';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/core/days';
import { agentFamily } from '../../shared/core/identity/agent';
import { isLoopbackNetwork, networkOf } from '../../shared/core/identity/network';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf, storedDocuments } from '../support/cosmos';
import { D3, GOLDEN_ENV, VISITORS } from '../support/golden-fixture';
import { normalised, readAll, recorded } from '../support/golden-run';
import { startTestHost, type TestHost } from '../support/host';
import { addressSearch, networksIn } from '../support/privacy';

// Issue 51 (4): the golden store was kept before the day's secrets (test/golden/store.json): its visitor-days keep
// networks beside tokens of HASH_KEY, and its facts keep both beside person hashes, so the holder of HASH_KEY gets their
// addresses back from a dump. Once the fold reads its days no more, the timer's migration makes every token again with
// a secret it deletes, and drops the networks and the facts: the same search recovers no one, and every answer the
// golden file recorded stands, save the tokens and networks of the day's visitors table.

const STORE = JSON.parse(readFileSync(join(__dirname, '..', 'golden', 'store.json'), 'utf8')) as {
  read_at: string;
  documents: Array<Record<string, unknown>>;
};
const GOLDEN = JSON.parse(readFileSync(join(__dirname, '..', 'golden', 'store-answers.json'), 'utf8'));
/** The first day the fold reads none of the golden days. */
const LATER = `${addDays(D3, 48)}T12:00:00.000Z`;
const FAMILIES = [...new Set(Object.values(VISITORS).map((visitor) => agentFamily(visitor.agent)))];
/** The fixture's own /24s, as if known from elsewhere. */
const NETWORKS = [...new Set(Object.values(VISITORS).map((visitor) => networkOf(visitor.address)))].filter((network) =>
  /^\d+\.\d+\.\d+\.x$/.test(network),
);

/** The day's visitors table without what the migration makes again, its rows in one order. */
function withoutTokens(answers: any) {
  const visitors = Object.fromEntries(
    Object.entries(answers.visitors_by_day as Record<string, any>).map(([day, table]) => [
      day,
      {
        ...table,
        visitors: table.visitors.map(({ token: _token, network: _network, ...row }: Record<string, unknown>) => JSON.stringify(row)).sort(),
      },
    ]),
  );
  // `now` is the last 30 minutes of facts; a day the fold reads no more is never in them.
  const { now: _now, ingest: _ingest, ...rest } = answers;
  return { ...rest, visitors_by_day: visitors };
}

const dumpOf = async (container: Container) => {
  const documents = (await storedDocuments(container)).documents as Array<Record<string, unknown>>;
  return { documents, text: documents.map((doc) => JSON.stringify(doc)).join('\n') };
};

describe('days kept before the day secrets, once the migration has made them again: an address search with HASH_KEY', () => {
  let t: TestHost;
  let container: Container;
  const clock = fixedClock(STORE.read_at);
  let before: Awaited<ReturnType<typeof dumpOf>>;
  let after: Awaited<ReturnType<typeof dumpOf>>;
  let answers: any;

  beforeAll(async () => {
    t = await startTestHost({ env: GOLDEN_ENV, overrides: { clock } });
    container = await containerOf(t.env);
    for (const document of STORE.documents) await container.items.create(document);
    before = await dumpOf(container);
    clock.set(LATER);
    await t.fold();
    after = await dumpOf(container);
    clock.set(STORE.read_at);
    answers = normalised(await readAll(t), t.env.COSMOS_DATABASE!);
  });
  afterAll(() => t?.stop());

  const search = (text: string, networks: readonly string[]) =>
    addressSearch(text, { hashKey: t.env.HASH_KEY!, families: FAMILIES, networks, secrets: new Map() });

  it('recovered addresses from the store as it was kept', () => {
    const recovered = search(before.text, networksIn(before.text)).filter((found) => found.when !== 'person');
    expect(recovered.map((found) => found.address)).toContain(VISITORS.ann.address);
  });

  it('keeps no network but loopback’s, no fact and no secret of the migration', () => {
    const days = after.documents.filter((doc) => doc.kind === 'visitor-day');
    expect(days).toHaveLength(before.documents.filter((doc) => doc.kind === 'visitor-day').length);
    expect(days.filter((doc) => doc.network !== 'x' && !isLoopbackNetwork(String(doc.network)))).toEqual([]);
    expect(after.documents.filter((doc) => doc.kind === 'fact' || doc.kind === 'rekey-secret')).toEqual([]);
    expect(networksIn(after.text)).toEqual(['127.0.0.x']);
  });

  it('recovers no one over every /24 the dump names, and no token even over the /24s known from elsewhere', () => {
    expect(search(after.text, networksIn(after.text))).toEqual([]);
    // Person hashes stay HMACs of HASH_KEY until the switch to person ids (docs/threat-model.md): not this migration's.
    expect(search(after.text, NETWORKS).filter((found) => found.when !== 'person')).toEqual([]);
  });

  it('answers every figure the golden file recorded; the day’s visitors differ only in their tokens and networks', () => {
    expect(withoutTokens(recorded(answers, GOLDEN))).toEqual(withoutTokens(GOLDEN));
    const rows = Object.values(answers.visitors_by_day as Record<string, any>).flatMap((table) => table.visitors);
    const goldenRows = Object.values(GOLDEN.visitors_by_day as Record<string, any>).flatMap((table) => table.visitors);
    expect(rows.map((row) => row.network).sort()).toEqual(
      goldenRows.map((row) => (isLoopbackNetwork(row.network) ? row.network : 'x')).sort(),
    );
    const tokens = new Set(goldenRows.map((row) => row.token));
    expect(rows.filter((row) => tokens.has(row.token))).toEqual([]);
  });
});
