import { describe, expect, it } from 'vitest';
import { oneZone, siteDaysOf } from '../../shared/core/sites/zones';
import type { ActivityHour } from '../../shared/core/store/activity';
import { zoneBook } from '../../shared/core/zone';
import { zoneHourOf } from '../../shared/keep/plan';
import { byHourOf } from '../../shared/read/activity/local-hours';

// A local hour is kept from its own first instant, so a read answers it whole in +05:30 and +05:45 alike, and a day kept
// in UTC before its site had a zone is answered in UTC hours.

const zoneOf = zoneBook();

const hourDoc = (day: string, hour: string, requests: number): ActivityHour => ({
  id: `hour:site:${hour}`,
  pk: day,
  kind: 'activity-hour',
  store: 'site',
  day,
  hour,
  requests,
  bots: 0,
  self: 0,
  paths: {},
  folded_to: 0,
});

describe('a day’s local hours, as kept and as read', () => {
  it('keeps a hit in Kathmandu in its local hour, from that hour’s first instant', () => {
    const kathmandu = zoneHourOf(() => zoneOf('Asia/Kathmandu'));
    // 04:20Z is 10:05 in Kathmandu (+05:45): its hour began at 04:15Z.
    expect(kathmandu('2026-10-23T04:20:00.000Z')).toEqual({ key: '10', start: '2026-10-23T04:15:00.000Z' });
  });

  it('answers every local hour of a day in +05:30, the kept ones with their requests', () => {
    const kolkata = oneZone(zoneOf('Asia/Kolkata'));
    const hours = byHourOf([hourDoc('2026-10-23', '2026-10-23T04:30:00.000Z', 3)], ['2026-10-23'], kolkata);
    expect(hours).toHaveLength(24);
    expect(hours[0]!.hour).toBe('2026-10-23T00:00:00+05:30');
    expect(hours.filter((hour) => hour.requests > 0)).toEqual([{ hour: '2026-10-23T10:00:00+05:30', requests: 3, bots: 0, self: 0 }]);
  });

  it('answers a day kept in UTC before the zone in UTC hours, and the days after in the zone’s', () => {
    const days = siteDaysOf([{ zone: 'America/New_York', from: '2026-10-24' }], zoneOf);
    const docs = [hourDoc('2026-10-23', '2026-10-23T22:00:00.000Z', 1), hourDoc('2026-10-24', '2026-10-24T06:00:00.000Z', 2)];
    const hours = byHourOf(docs, ['2026-10-23', '2026-10-24'], days);
    expect(hours.filter((hour) => hour.requests > 0).map((hour) => [hour.hour, hour.requests])).toEqual([
      ['2026-10-23T22:00:00+00:00', 1],
      ['2026-10-24T02:00:00-04:00', 2],
    ]);
  });

  it('keeps and answers Chatham’s 23-hour day and Lord Howe’s half-hour move by the hours the clock strikes', () => {
    // 14:05Z on 26 September is 03:50 on the 27th in Chatham (+13:45), just after its clock skipped 02:45 to 03:45.
    const chatham = zoneOf('Pacific/Chatham');
    const kept = zoneHourOf(() => chatham)('2026-09-26T14:05:00.000Z');
    expect(kept).toEqual({ key: '02', start: '2026-09-26T13:15:00.000Z' });
    const days = byHourOf([hourDoc('2026-09-27', kept.start, 1)], ['2026-09-27'], oneZone(chatham));
    expect(days).toHaveLength(23);
    expect(days.filter((hour) => hour.requests > 0).map((hour) => hour.hour)).toEqual(['2026-09-27T02:00:00+12:45']);
    // 15:40Z on 3 October is 02:40 on the 4th at Lord Howe (+11), in the half hour its 02:00 kept.
    const lordHowe = zoneOf('Australia/Lord_Howe');
    const half = zoneHourOf(() => lordHowe)('2026-10-03T15:40:00.000Z');
    expect(half).toEqual({ key: '02', start: '2026-10-03T15:30:00.000Z' });
    const hours = byHourOf([hourDoc('2026-10-04', half.start, 1)], ['2026-10-04'], oneZone(lordHowe));
    expect(hours).toHaveLength(24);
    expect(hours.filter((hour) => hour.requests > 0).map((hour) => hour.hour)).toEqual(['2026-10-04T02:30:00+11:00']);
  });
});
