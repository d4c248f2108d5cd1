import { afterEach, describe, expect, inject, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { plainProxy } from '../support/proxy';
import { startTestHost, type TestHost } from '../support/host';
import { everything, freshCosmos, unmarked } from './keep-helpers';

const NOW = '2026-10-23T20:00:00Z';
const AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

describe('keep-hits when Cosmos DB goes away mid-run', () => {
  let t: TestHost | undefined;
  let proxy: Awaited<ReturnType<typeof plainProxy>> | undefined;
  afterEach(async () => {
    await t?.stop();
    await proxy?.close();
  });

  it('retries the messages once it is back and counts every hit once; nothing valid lands in poison', async () => {
    proxy = await plainProxy(new URL(inject('stack').cosmosEndpoint));
    const database = `outage-${Date.now()}`;
    const { documents } = await freshCosmos({ endpoint: proxy.endpoint, database });
    const logger = memoryLogger();
    t = await startTestHost({
      env: { COSMOS_ENDPOINT: proxy.endpoint, COSMOS_DATABASE: database },
      overrides: { clock: fixedClock(NOW), logger },
      queueSettings: { visibilityTimeout: 200, maxDequeueCount: 1000 },
    });
    const post = async (batch: number) => {
      const hits = Array.from({ length: 10 }, (_, i) => ({
        at: `2026-10-23T1${batch % 10}:0${i}:00Z`,
        address: `203.0.113.${(batch * 10 + i) % 25}`,
        user_agent: AGENT,
        path: `/p${i % 4}`,
      }));
      const response = await fetch(`${t!.host.url}/api/hits`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-ingest-key': t!.env.INGEST_KEY! },
        body: JSON.stringify({ hits }),
      });
      expect(response.status).toBe(202);
    };
    for (let batch = 0; batch < 4; batch += 1) await post(batch);
    await t.host.drain();

    // Two more are on their way through the keeper when the store goes: some of their writes land, some do not.
    await post(4);
    await post(5);
    await proxy.cut();
    for (let batch = 6; batch < 12; batch += 1) await post(batch);
    const listener = t.host.listeners().get('keep-hits')!;
    // Wait until the outage has failed invocations (each one a retry the queue will make).
    while (listener.stats().failures < 6) await new Promise((resolve) => setTimeout(resolve, 50));
    await proxy.restore();
    await t.host.drain(60_000);
    await t.fold();

    const kept = unmarked(await everything(documents));
    const hours = kept.filter((doc) => doc.kind === 'activity-hour');
    expect(hours.reduce((sum, doc) => sum + (doc.requests as number), 0)).toBe(120);
    expect(hours).toHaveLength(10);
    const days = kept.filter((doc) => doc.kind === 'visitor-day');
    expect(days.reduce((sum, doc) => sum + (doc.requests as number), 0)).toBe(120);
    const people = kept.filter((doc) => doc.kind === 'visitor-record');
    // Addresses 203.0.113.0 to .24 with one browser: 25 people, one day each.
    expect(people).toHaveLength(25);
    expect(people.every((doc) => doc.days_seen === 1 && doc.who === 'people')).toBe(true);
    expect(kept.find((doc) => doc.kind === 'visitors-summary')).toMatchObject({ people_all_time: people.length, scanners_left_out: 0 });
    expect(listener.stats().poisoned).toBe(0);
    expect((await t.poison.peekMessages()).peekedMessageItems).toHaveLength(0);
    expect(logger.lines.some((line) => line.includes('hits were not kept yet'))).toBe(true);
  });
});
