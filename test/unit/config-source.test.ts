import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../adapters/memory/store';
import { configSource, CONFIG_MAX_AGE_MS } from '../../shared/core/config/source';
import { goalsSetting } from '../../shared/core/events/events';
import { fixedClock } from '../../shared/core/ports/clock';
import { memoryLogger } from '../../shared/core/ports/logger';

// The configuration is seeded once from the settings, then the one source: another instance's change is read within a
// minute (the clock says when), and a setting that differs later is logged, never applied.

const seed = {
  sites: [{ name: 'shop.example', origins: ['https://shop.example'], zone: 'UTC' }],
  goals: goalsSetting.parse('signup=event:signup'),
};

describe('the configuration as each instance reads it', () => {
  it('is made from the settings by the first instance only; the second reads what the first made', async () => {
    const store = memoryStore();
    const clock = fixedClock('2026-10-23T12:00:00Z');
    const first = configSource({ docs: store.config, clock, logger: memoryLogger(), seed });
    const second = configSource({ docs: store.config, clock, logger: memoryLogger(), seed: { ...seed, goals: [] } });
    const [a, b] = await Promise.all([first.current(), second.current()]);
    expect(a.doc.goals.map((goal) => goal.name)).toEqual(['signup']);
    expect(b.doc).toEqual(a.doc);
  });

  it("reads another instance's change within a minute, and not before", async () => {
    const store = memoryStore();
    const clock = fixedClock('2026-10-23T12:00:00Z');
    const reader = configSource({ docs: store.config, clock, logger: memoryLogger(), seed });
    const read = await reader.current();
    expect(await store.config.replace({ ...read.doc, annotations: [{ day: '2026-10-23', note: 'Launch' }] }, read.etag)).toBe('replaced');
    clock.advance(CONFIG_MAX_AGE_MS - 1);
    expect((await reader.current()).doc.annotations).toEqual([]);
    clock.advance(1);
    expect((await reader.current()).doc.annotations).toEqual([{ day: '2026-10-23', note: 'Launch' }]);
  });

  it('logs a setting that differs from the document kept, and keeps the document', async () => {
    const store = memoryStore();
    const clock = fixedClock('2026-10-23T12:00:00Z');
    await configSource({ docs: store.config, clock, logger: memoryLogger(), seed }).current();
    const logger = memoryLogger();
    const later = configSource({ docs: store.config, clock, logger, seed: { ...seed, goals: goalsSetting.parse('buy=event:buy') } });
    expect((await later.current()).doc.goals.map((goal) => goal.name)).toEqual(['signup']);
    expect(logger.lines.map((line) => JSON.parse(line))).toEqual([
      { level: 'warn', message: 'settings differ from the configuration kept; the configuration holds', settings: 'GOALS' },
    ]);
  });
});
