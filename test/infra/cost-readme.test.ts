import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { costRecordPath, perHit, readmeCostSection, renderCostSection, type CostRecord } from '../support/cost-record';
import { dollarsPerMillion } from '../support/prices';

describe('the cost section of docs/cost.md', () => {
  const record = JSON.parse(readFileSync(costRecordPath, 'utf8')) as CostRecord;

  it('is the section the last recorded run and the one price table make (npm run bench cost -- --write)', () => {
    expect(existsSync(costRecordPath)).toBe(true);
    expect(readmeCostSection()).toBe(renderCostSection(record, 'readme'));
  });

  it('comes from a run that shows what the issue asks: beacons sharing messages, few executions a beacon, at most $3 a million busy page views', () => {
    const beacon = record.traffic.find((traffic) => traffic.kind === 'beacon')!;
    expect(beacon.hits / beacon.messages).toBeGreaterThanOrEqual(10);
    // Each beacon (a page load or its engagement) is one execution; the queue's are shared by a message's beacons.
    const { httpExecutions, queueExecutions } = beacon.counted;
    expect((httpExecutions + queueExecutions) / httpExecutions).toBeLessThanOrEqual(1.2);
    expect(dollarsPerMillion(perHit(beacon), 512).total).toBeLessThanOrEqual(3);
    expect(record.traffic.some((traffic) => traffic.kind === 'server')).toBe(true);
    // 512 MB instances, the default, hold the host's peak with a margin.
    expect(record.peakRssMb.peak).toBeLessThanOrEqual(512 * 0.8);
  });
});
