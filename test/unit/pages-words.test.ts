import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

interface Words {
  unitOf(n: number, one: string, many: string): string;
  unitWords(n: unknown, one: string, many: string): string;
  figure(n: unknown): string;
  dayWords(day: string | null, today?: string | null): string | null;
  headline(pulse: unknown): { figure: string; words: string; run: number[]; runLabel: string };
}

/** The words as the widget's own script defines them (the dashboard reads the same ones from the element). */
function widgetWords(): Words {
  const source = readFileSync(join(__dirname, '..', '..', 'public', 'headcount-pulse.js'), 'utf8');
  let defined: { words: Words } | undefined;
  const registry = { get: () => undefined, define: (_name: string, element: { words: Words }) => (defined = element) };
  const sandbox = {
    HTMLElement: class {},
    document: { currentScript: null },
    window: { customElements: registry },
    customElements: registry,
  };
  runInNewContext(source, sandbox);
  return defined!.words;
}

const words = widgetWords();
const run = (key: string, values: number[], last = '2026-10-23') =>
  values.map((value, i) => ({ day: `2026-10-${String(Number(last.slice(8)) - values.length + 1 + i).padStart(2, '0')}`, [key]: value }));

describe('the words of a count, shared by the widget and the dashboard', () => {
  it('fit the number: no people, 1 person, 2 people, thousands grouped, and a dash for a figure not read', () => {
    expect(words.unitWords(0, 'person', 'people')).toBe('no people');
    expect(words.unitWords(1, 'person', 'people')).toBe('1 person');
    expect(words.unitWords(2, 'person', 'people')).toBe('2 people');
    expect(words.unitWords(2345, 'visit', 'visits')).toBe('2,345 visits');
    expect(words.unitWords(null, 'person', 'people')).toBe('–');
    expect(words.unitWords(-1, 'person', 'people')).toBe('–');
    expect(words.unitWords('3', 'person', 'people')).toBe('–');
    expect(words.figure(undefined)).toBe('–');
  });

  it('say a UTC day as "23 Oct", with the year only when it is not the year of today, and nothing for a bad day', () => {
    expect(words.dayWords('2026-10-23', '2026-11-30')).toBe('23 Oct');
    expect(words.dayWords('2026-01-01', null)).toBe('1 Jan');
    expect(words.dayWords('2025-12-31', '2026-01-02')).toBe('31 Dec 2025');
    expect(words.dayWords('23/10/2026', '2026-10-23')).toBeNull();
    expect(words.dayWords(null)).toBeNull();
  });

  it('headline the visits by people once counted, else the people since the day counting began, never "all time"', () => {
    const visits = words.headline({
      people_all_time: 4,
      counted_from: '2026-10-18',
      people_new_by_day: run('people', [1, 0, 3]),
      visits_all_time: 2345,
      visits_from: '2026-09-13',
      visits_by_day: run('visits', [5, 0, 7]),
    });
    expect(visits).toEqual({ figure: '2,345', words: 'visits by people since 13 Sep', run: [5, 0, 7], runLabel: 'visits by people' });
    const one = words.headline({
      people_all_time: 1,
      counted_from: '2026-10-23',
      people_new_by_day: run('people', [0, 1]),
      visits_all_time: null,
    });
    expect([one.figure, one.words, one.run]).toEqual(['1', 'person since 23 Oct', [0, 1]]);
    const many = words.headline({
      people_all_time: 5,
      counted_from: '2026-10-23',
      people_new_by_day: run('people', [5]),
      visits_all_time: 0,
      visits_from: '2026-10-23',
    });
    expect(`${many.figure} ${many.words}`).toBe('5 people since 23 Oct');
    const none = words.headline({ people_all_time: 0, counted_from: null, people_new_by_day: run('people', [0]), visits_all_time: null });
    expect(`${none.figure} ${none.words}`).toBe('No people yet');
  });

  it('headline a pulse that was not read, or not a pulse at all, as a dash', () => {
    for (const pulse of [null, undefined, {}, { people_all_time: null }, 'error', { people_all_time: 'many' }]) {
      expect(words.headline(pulse)).toEqual({ figure: '–', words: 'people', run: [], runLabel: 'new people' });
    }
  });
});
