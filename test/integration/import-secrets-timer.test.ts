import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';
import { importSecretId } from '../../shared/core/store/day-secrets';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';

// The timer (`recount`) deletes an import secret once no import has used it for a day, as it deletes each day's secret.

describe('the timer and the import secrets', () => {
  let t: TestHost;
  const clock = fixedClock('2026-10-23T10:00:00Z');
  const logger = memoryLogger();

  beforeAll(async () => {
    t = await startTestHost({ overrides: { clock, logger } });
    await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  it('keeps one an import used within a day, and deletes it a day after its last use', async () => {
    const keeper = t.root.daySecrets.keeper;
    const secret = await keeper.importedSecretOf('2020-01-01');
    clock.set('2026-10-24T09:00:00Z');
    expect(await keeper.importedSecretOf('2020-01-01')).toBe(secret);
    clock.set('2026-10-25T08:59:00Z');
    await t.fold();
    expect((await t.root.store.secrets.read(importSecretId('2020-01-01')))?.secret).toBe(secret);
    clock.set('2026-10-25T09:01:00Z');
    await t.fold();
    expect(await t.root.store.secrets.read(importSecretId('2020-01-01'))).toBeNull();
    expect(logger.lines.some((line) => line.includes('import secrets deleted'))).toBe(true);
    expect(logger.lines.join('\n')).not.toContain(secret);
  });
});
