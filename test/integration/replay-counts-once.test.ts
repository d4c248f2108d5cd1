import { afterEach, describe, expect, inject, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { plainProxy } from '../support/proxy';
import { startTestHost, type TestHost } from '../support/host';
import { post } from '../support/http';
import { freshCosmos } from './keep-helpers';

const NOW = '2026-10-23T20:00:00Z';
const AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

describe('a message poisoned by a long store outage, replayed once the store is back', () => {
  let t: TestHost | undefined;
  let proxy: Awaited<ReturnType<typeof plainProxy>> | undefined;
  afterEach(async () => {
    await t?.stop();
    await proxy?.close();
  });

  it('counts once, even when it is put back on the queue twice', async () => {
    proxy = await plainProxy(new URL(inject('stack').cosmosEndpoint));
    const database = `replay-${Date.now()}`;
    await freshCosmos({ endpoint: proxy.endpoint, database });
    t = await startTestHost({
      env: { COSMOS_ENDPOINT: proxy.endpoint, COSMOS_DATABASE: database },
      overrides: { clock: fixedClock(NOW), logger: memoryLogger() },
      queueSettings: { visibilityTimeout: 100, maxDequeueCount: 2 },
    });
    const hits = (first: number) =>
      Array.from({ length: 5 }, (_, i) => ({
        at: `2026-10-23T10:0${i}:00Z`,
        address: `203.0.113.${first + i}`,
        user_agent: AGENT,
        path: `/p${i}`,
      }));
    expect((await post(`${t.host.url}/api/hits`, { hits: hits(0) }, { 'x-ingest-key': t.env.INGEST_KEY! })).status).toBe(202);
    await t.host.drain();
    // The store goes; a message is tried until the dequeue count, then poisoned.
    await proxy.cut();
    expect((await post(`${t.host.url}/api/hits`, { hits: hits(10) }, { 'x-ingest-key': t.env.INGEST_KEY! })).status).toBe(202);
    const listener = t.host.listeners().get('keep-hits')!;
    while (listener.stats().poisoned < 1) await new Promise((resolve) => setTimeout(resolve, 50));
    const [poisoned] = (await t.poison.peekMessages()).peekedMessageItems;
    expect(poisoned).toBeDefined();
    await proxy.restore();

    // Replayed; then the same text put back again, as a replay that died between its send and its delete leaves it.
    expect((await post(`${t.host.url}/admin/functions/replay-poison`, {})).status).toBe(202);
    await t.queue.sendMessage(poisoned!.messageText);
    await t.host.drain();
    await t.fold();

    const count = (await (await fetch(`${t.host.url}/api/pulse`)).json()) as { people_all_time: number; visits_all_time: number };
    expect(count).toMatchObject({ people_all_time: 10, visits_all_time: 10 });
    const activity = (await (
      await fetch(`${t.host.url}/api/admin/activity?days=1`, { headers: { 'x-operator-key': t.env.OPERATOR_KEY! } })
    ).json()) as { hours: { requests: number }[] };
    expect(activity.hours.reduce((sum, hour) => sum + hour.requests, 0)).toBe(10);
    expect((await t.poison.peekMessages()).peekedMessageItems).toHaveLength(0);
  });
});
