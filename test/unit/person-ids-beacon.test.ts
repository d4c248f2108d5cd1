import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { derivePersonId } from '../../shared/core/identity/person-id';
import { HMAC_PERSON_IDS } from '../support/persons';
import { agentFamily } from '../../shared/core/identity/agent';
import { personHash } from '../../shared/core/identity/tokens';
import { memoryLogger } from '../../shared/core/ports/logger';
import { personIdsMigration } from '../../shared/fold/migrations/person-ids';
import { runMigrations } from '../../shared/fold/migrations/runner';
import { personSwitch } from '../../shared/keep/switched';
import type { SeenRequest } from '../../shared/ingest/classify';
import { beaconScan } from '../../shared/ingest/subjects/beacon';

const KEY = 'test-hash-key-0123456789abcdef';
const rules = { hashKey: KEY, selfNetworks: [], selfAgentTag: 'headcount-self', ignoredPaths: ['/api/admin'] };
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';
const SECRET = 'test-day-secret-0123456789abcdef';
const derive = (old: string) => derivePersonId(old, 1);

const scan = (address: string, subject = 'poster'): SeenRequest => ({
  at: new Date('2026-12-06T10:00:00Z'),
  address,
  userAgent: FIREFOX,
  path: '/scan',
  referrer: null,
  served_by: 'site',
  pageLoad: true,
  subject,
  operator: false,
});

/** A site's store whose migration moves its subjects' visitors; the ingest still sends old ids, as until every store is done. */
function rigOf() {
  const store = memoryStore();
  const clock = { now: () => new Date('2026-12-06T10:00:00Z') };
  const switched = personSwitch(store.migrations, store.personMoves.at, derive);
  const deps = {
    rules,
    persons: HMAC_PERSON_IDS,
    logger: memoryLogger(),
    subjects: { mode: 'hash' as const, store: store.subjects, switched },
  };
  const migration = personIdsMigration(store.personMoves, derive, clock, { store: store.goals, names: () => [], subjects: store.subjects });
  return {
    store,
    status: async (address: string) => {
      const answer = await beaconScan(null, scan(address), SECRET, true, deps);
      return answer.ok ? answer.value.status : answer.failure.code;
    },
    migrate: (slices: number) => {
      let left = slices;
      return runMigrations(store.migrations, [migration], { now: clock.now(), limit: 10, more: () => Promise.resolve(left-- > 0) });
    },
  };
}

const visitorIds = (store: ReturnType<typeof memoryStore>) =>
  store.documents.query<{ kind: string; id: string }>((doc) => doc.kind === 'subject-visitor').map((doc) => doc.id);

describe("the beacon's new or returning across the switch of person ids", () => {
  it('a visitor claimed before the switch is returning while the ingest still sends the old id, before and after its document moved', async () => {
    const rig = rigOf();
    expect(await rig.status('198.51.100.7')).toBe('new');
    expect(await rig.migrate(0)).toBe(false);
    // Begun: the document is still under the old id.
    expect(await rig.status('198.51.100.7')).toBe('returning');
    expect(await rig.migrate(5)).toBe(true);
    const old = personHash(KEY, '198.51.100.7', agentFamily(FIREFOX));
    expect(visitorIds(rig.store)).toEqual([`subject-visitor:poster:${await derive(old)}`]);
    expect(await rig.status('198.51.100.7')).toBe('returning');
    expect(visitorIds(rig.store)).toHaveLength(1);
  });

  it('a visitor first seen once begun is claimed under the derived id: new once, then returning', async () => {
    const rig = rigOf();
    expect(await rig.migrate(0)).toBe(false);
    expect(await rig.status('198.51.100.8')).toBe('new');
    expect(await rig.status('198.51.100.8')).toBe('returning');
    const old = personHash(KEY, '198.51.100.8', agentFamily(FIREFOX));
    expect(visitorIds(rig.store)).toEqual([`subject-visitor:poster:${await derive(old)}`]);
  });
});
