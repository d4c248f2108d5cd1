import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { fixedClock } from '../../shared/core/ports/clock';
import { migrationId } from '../../shared/core/store/migrations';
import { PERSON_IDS_MIGRATION } from '../../shared/core/store/person-moves';
import { VISITORS_PK } from '../../shared/core/store/visitors';
import { ActivityCard } from '../../shared/contract/activity';
import { cardOf } from '../support/card';

const clock = fixedClock(new Date('2026-12-10T12:00:00.000Z'));

async function switchedOn(begunAt: string | null) {
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
  return cardOf(store, clock);
}

describe("the Activity card's identity_from", () => {
  it('names the day after the person-ids migration began when the period spans it, as the contract declares', async () => {
    const { status, body } = await (await switchedOn('2026-12-05T10:00:00.000Z'))('days=30');
    expect(status).toBe(200);
    expect(body.identity_from).toBe('2026-12-06');
    expect(ActivityCard.safeParse(body).success).toBe(true);
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
});
