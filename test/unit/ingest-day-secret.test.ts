import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { utcDay } from '../../shared/core/identity/tokens';
import type { QueuedHit } from '../../shared/core/message';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import type { DaySecrets } from '../../shared/core/store/day-secrets';
import type { SeenRequest } from '../../shared/ingest/classify';
import { daySecretKeeper } from '../../shared/ingest/day-secrets';
import { ingest } from '../../shared/ingest/ingest';
import { AGENTS } from '../support/http';
import { HMAC_PERSON_IDS } from '../support/persons';

// Ingest makes each hit's token with its day's secret, read through the keeper before classification.

const NOW = '2026-10-23T12:00:00Z';
const rules = { hashKey: 'test-hash-key-0123456789abcdef', selfNetworks: [], selfAgentTag: 'headcount-self', ignoredPaths: [] };

const seen = (address: string, userAgent: string, at = NOW): SeenRequest => ({
  at: new Date(at),
  address,
  userAgent,
  path: '/',
  referrer: null,
  served_by: 'site',
  pageLoad: true,
  subject: null,
  operator: false,
});

function rig(secrets: DaySecrets = memoryStore().secrets) {
  const clock = fixedClock(NOW);
  const logger = memoryLogger();
  const sent: QueuedHit[] = [];
  const deps = {
    rules,
    secrets: daySecretKeeper({ secrets, clock, lateDays: 7, dayOf: utcDay }),
    persons: HMAC_PERSON_IDS,
    sender: {
      enqueue: async (hits: readonly QueuedHit[]) => (sent.push(...hits), { ok: true as const }),
      waiting: () => ({ requests: 0, hits: 0 }),
    },
    clock,
    logger,
  };
  return { deps, sent, logger, clock };
}

describe("ingest and the day's secret", () => {
  it('makes two visits of two browsers on one address, and one of a browser that updates itself', async () => {
    const { deps, sent } = rig();
    const chrome132 = AGENTS.chromeWindows.replace('131.0.0.0', '132.0.0.0');
    const answer = await ingest(
      [seen('203.0.113.7', AGENTS.chromeWindows), seen('203.0.113.7', AGENTS.firefoxLinux), seen('203.0.113.7', chrome132)],
      deps,
    );
    expect(answer).toEqual({ ok: true, value: { accepted: 3, ignored: 0 } });
    const [chrome, firefox, updated] = sent.map((hit) => hit.token);
    expect(firefox).not.toBe(chrome);
    expect(updated).toBe(chrome);
  });

  it('counts no hit of a day whose secret is gone, and makes no secret for it', async () => {
    const store = memoryStore();
    const { deps, clock } = rig(store.secrets);
    clock.set('2026-10-31T12:00:00Z');
    const answer = await ingest([seen('203.0.113.7', AGENTS.chromeWindows, '2026-10-23T23:00:00Z')], deps);
    expect(answer).toEqual({ ok: true, value: { accepted: 0, ignored: 1 } });
    expect(await store.secrets.days()).toEqual([]);
  });

  it('answers 503 naming nothing of the store when it cannot give the secret, queues nothing, and logs why', async () => {
    const down: DaySecrets = {
      read: async () => {
        throw new Error('ECONNREFUSED 10.1.2.3:443');
      },
      create: async () => 'created',
      days: async () => [],
      remove: async () => undefined,
      renew: async () => 'gone',
      imports: async () => [],
    };
    const { deps, sent, logger } = rig(down);
    const answer = await ingest([seen('203.0.113.7', AGENTS.chromeWindows)], deps);
    expect(answer).toMatchObject({ ok: false, failure: { status: 503, code: 'store_unavailable' } });
    expect(JSON.stringify(answer)).not.toContain('ECONNREFUSED');
    expect(sent).toEqual([]);
    expect(logger.lines.join('\n')).toContain('ECONNREFUSED');
  });
});
