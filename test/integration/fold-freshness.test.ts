import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { containerOf } from '../support/cosmos';
import { settle, startTestHost, type TestHost } from '../support/host';
import { AGENTS, post } from '../support/http';

const NOW = '2026-10-23T12:00:00.000Z';

describe('freshness: a queued hit is in the pulse and the Admin count within two runs of the timer', () => {
  let t: TestHost;
  beforeAll(async () => {
    t = await startTestHost({ overrides: { clock: fixedClock(NOW) } });
    await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  it('counts a hit kept just before a run by the next run at the latest, when runs are further apart than the settle margin', async () => {
    const people = async () => {
      const pulse = (await (await fetch(`${t.host.url}/api/pulse`)).json()) as { people_all_time: number };
      const admin = (await (
        await fetch(`${t.host.url}/api/admin/visitors/people`, { headers: { 'x-operator-key': t.env.OPERATOR_KEY! } })
      ).json()) as { people_all_time: number };
      expect(admin.people_all_time).toBe(pulse.people_all_time);
      return pulse.people_all_time;
    };
    for (let round = 1; round <= 3; round += 1) {
      const sent = await post(
        `${t.host.url}/api/hits`,
        { at: NOW, address: `198.51.100.${round}`, user_agent: AGENTS.chromeWindows, path: '/' },
        { 'x-ingest-key': t.env.INGEST_KEY! },
      );
      expect(sent.status).toBe(202);
      await t.host.drain();
      // The first run may come before the write has settled (it then leaves it for the next run, never skips it).
      await t.host.run('recount');
      const afterFirst = await people();
      expect([round - 1, round]).toContain(afterFirst);
      // The timer's next run: a minute on in Azure, here just past the settle margin.
      await settle(t.root.settings.FOLD_SETTLE_SECONDS);
      await t.host.run('recount');
      expect(await people()).toBe(round);
    }
  });
});
