import { describe, expect, it } from 'vitest';
import { judge, scanRules } from '../../shared/core/subjects/scan-rule';
import { scannedVisitor } from '../../shared/core/subjects/visitor';

const rules = scanRules(10, 60);
const at = (ms: number) => new Date(Date.parse('2026-10-23T10:00:00.000Z') + ms).toISOString();
/** Kept on its UTC day, as a site in UTC keeps it. */
const scan = (ms: number) => ({ at: at(ms), day: at(ms).slice(0, 10) });
const counted = (instants: number[], r = rules) => scannedVisitor(null, 'tree-1', 'a'.repeat(32), instants.map(scan), r)!.delta.scans;

describe('judging a scan of a subject', () => {
  it('the refresh window runs from the latest scan: 9.999 s after it is the same scan, 10 s is not', () => {
    const watermarks = { last_seen: at(0), last_counted: at(0) };
    expect(judge(watermarks, at(9_999), scanRules(10, 0))).toBe('refresh');
    expect(judge(watermarks, at(10_000), scanRules(10, 0))).toBe('counted');
  });

  it('the rate limit runs from the latest counted scan: 59.999 s after it is not counted, 60 s is', () => {
    const watermarks = { last_seen: at(30_000), last_counted: at(0) };
    expect(judge(watermarks, at(59_999), rules)).toBe('limited');
    expect(judge(watermarks, at(60_000), rules)).toBe('counted');
  });

  it('a scan at or before the latest one judged is a late or repeated delivery and changes nothing', () => {
    const watermarks = { last_seen: at(5_000), last_counted: at(0) };
    expect(judge(watermarks, at(5_000), rules)).toBe('seen');
    expect(judge(watermarks, at(1_000), rules)).toBe('seen');
    expect(judge({ last_seen: null, last_counted: null }, at(0), rules)).toBe('counted');
  });

  it('a chain of reloads each within the window stays one scan past the interval; the same spacing at the window does not', () => {
    const reloads = Array.from({ length: 9 }, (_, i) => i * 9_999); // up to 79.99 s, every gap 9.999 s
    expect(counted(reloads)).toBe(1);
    const visits = Array.from({ length: 9 }, (_, i) => i * 10_000); // up to 80 s, every gap 10 s: the limit decides
    expect(counted(visits)).toBe(2); // at 0 and 60 s
  });

  it('counts at most one scan a minute for scans spaced past the refresh window', () => {
    expect(counted([0, 30_000, 59_999])).toBe(1);
    expect(counted([0, 30_000, 60_000])).toBe(2);
    expect(counted([0, 30_000, 60_000], scanRules(10, 0))).toBe(3);
  });

  it('the first counted scan makes the visitor new on its day; later ones are repeats', () => {
    const scanned = scannedVisitor(null, 'tree-1', 'b'.repeat(32), [scan(0), scan(86_400_000)], rules)!;
    expect(scanned.delta).toMatchObject({
      scans: 2,
      unique: 1,
      by_day: { '2026-10-23': { scans: 1, new: 1 }, '2026-10-24': { scans: 1, new: 0 } },
    });
    expect(scanned.visitor).toMatchObject({ scans: 2, last_counted: at(86_400_000), first_scan: at(0) });
    expect(scannedVisitor(scanned.visitor, 'tree-1', 'b'.repeat(32), [scan(0), scan(86_400_000)], rules)).toBeNull();
  });

  it("a scan counts on the site's local day it was kept on, not its UTC date", () => {
    // 2026-10-24T02:00Z is the evening of the 23rd in New York.
    const evening = { at: at(16 * 3_600_000), day: '2026-10-23' };
    const scanned = scannedVisitor(null, 'tree-1', 'c'.repeat(32), [scan(0), evening], rules)!;
    expect(scanned.delta.by_day).toEqual({ '2026-10-23': { scans: 2, new: 1 } });
  });
});
