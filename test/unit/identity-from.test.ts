import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { fixedClock } from '../../shared/core/ports/clock';
import { migrationId } from '../../shared/core/store/migrations';
import { PERSON_IDS_MIGRATION } from '../../shared/core/store/person-moves';
import { VISITORS_PK } from '../../shared/core/store/visitors';
import { PeriodReport } from '../../shared/contract/activity';
import { cardOf } from '../support/card';
import { RetentionCard } from '../../shared/contract/retention';
import { retentionQuerySchema } from '../../shared/contract/queries';
import { memoryLogger } from '../../shared/core/ports/logger';
import { retentionCard } from '../../shared/read/retention';
import { exportDays } from '../../shared/read/export/export';
import { exportQuerySchema } from '../../shared/contract/queries';
import { ExportDays } from '../../shared/contract/activity';
import { funnelStepsSetting } from '../../shared/core/funnel';

const clock = fixedClock(new Date('2026-12-10T12:00:00.000Z'));

async function storeOn(begunAt: string | null) {
  const store = memoryStore();
  if (begunAt !== null)
    await store.migrations.create({
      id: migrationId(PERSON_IDS_MIGRATION),
      pk: VISITORS_PK,
      kind: 'migration',
      name: PERSON_IDS_MIGRATION,
      begun_at: begunAt,
      position: null,
      slices: 0,
      done_at: null,
    });
  return store;
}

const switchedOn = async (begunAt: string | null) => cardOf(await storeOn(begunAt), clock);

async function retentionOn(begunAt: string | null, months: number) {
  const query = retentionQuerySchema.parse({ months: String(months) });
  const answer = await retentionCard(query, { store: await storeOn(begunAt), clock, logger: memoryLogger() });
  if (!answer.ok) throw new Error('the retention card failed');
  expect(RetentionCard.safeParse(answer.value).success).toBe(true);
  return answer.value;
}

describe("the period report's identity_from", () => {
  it('names the day after the person-ids migration began when the period spans it, as the contract declares', async () => {
    const { status, body } = await (await switchedOn('2026-12-05T10:00:00.000Z'))('days=30');
    expect(status).toBe(200);
    expect(body.identity_from).toBe('2026-12-06');
    expect(PeriodReport.safeParse(body).success).toBe(true);
  });

  it.each([
    ['a period that starts on it', 'from=2026-12-06&to=2026-12-10', '2026-12-05T10:00:00.000Z'],
    ['a period that ends before it', 'from=2026-11-01&to=2026-12-05', '2026-12-05T10:00:00.000Z'],
    ['a store never switched', 'days=30', null],
  ])('is absent from %s', async (_, query, begunAt) => {
    const { status, body } = await (await switchedOn(begunAt))(query);
    expect(status).toBe(200);
    expect(body).not.toHaveProperty('identity_from');
  });

  it('is on the retention card when its months or weeks span the switch, and absent when they begin after it', async () => {
    expect((await retentionOn('2026-12-05T10:00:00.000Z', 1)).identity_from).toBe('2026-12-06');
    expect(await retentionOn('2026-06-05T10:00:00.000Z', 12)).toMatchObject({ identity_from: '2026-06-06' });
    expect(await retentionOn('2026-06-05T10:00:00.000Z', 1)).not.toHaveProperty('identity_from');
    expect(await retentionOn(null, 12)).not.toHaveProperty('identity_from');
  });

  it('is in the JSON export when its range spans the switch, and absent when it does not', async () => {
    const exported = async (begunAt: string | null, from: string, to: string) => {
      const deps = { store: await storeOn(begunAt), clock, logger: memoryLogger(), funnel: funnelStepsSetting.parse(undefined), goals: [] };
      const answer = await exportDays(exportQuerySchema.parse({ from, to, format: 'json' }), deps);
      if (!answer.ok || !('json' in answer.value)) throw new Error('the export failed');
      expect(ExportDays.safeParse(answer.value.json).success).toBe(true);
      return answer.value.json;
    };
    expect(await exported('2026-12-05T10:00:00.000Z', '2026-12-01', '2026-12-10')).toMatchObject({ identity_from: '2026-12-06' });
    expect(await exported('2026-12-05T10:00:00.000Z', '2026-12-06', '2026-12-10')).not.toHaveProperty('identity_from');
    expect(await exported(null, '2026-12-01', '2026-12-10')).not.toHaveProperty('identity_from');
  });
});
