import type { FoldingStore } from '../../shared/core/store';
import type { ActivityDoc, VisitorDay } from '../../shared/core/store/activity';
import { DAY_ROLLUP_ID, type DayRollup } from '../../shared/core/store/rollups';
import type { Fact } from '../../shared/core/store/facts';
import type { PeriodRollup } from '../../shared/core/store/periods';
import { FOLD_STATE_ID, type FoldState } from '../../shared/core/store/fold';
import { VISITORS_SUMMARY_ID, type VisitorsSummary } from '../../shared/core/store/summary';
import { VISITORS_PK, type VisitorRecord } from '../../shared/core/store/visitors';
import { VISITS_SUMMARY_ID, type VisitsSummary } from '../../shared/core/store/visits';
import type { MemoryDocuments } from './documents';
import { IMPORTS_PK, type LandedImport } from '../../shared/core/store/imports';

const resolved = <T>(value: T) => Promise.resolve(value);

const slot = <T extends { id: string; pk: string }>(documents: MemoryDocuments, id: string) => ({
  read: () => resolved(documents.read<T>(VISITORS_PK, id)),
  create: (doc: T) => resolved(documents.create(doc)),
  replace: (doc: T, etag: string) => resolved(documents.replace(doc, etag)),
});

const isRecord = (doc: { kind?: string }): doc is VisitorRecord => doc.kind === 'visitor-record';

export function memoryFolding(
  documents: MemoryDocuments,
): Omit<FoldingStore, 'subjects' | 'foldLease' | 'migrations' | 'goals' | 'cohorts'> {
  const records = (where: (record: VisitorRecord, watermark: number) => boolean) =>
    documents
      .queryMarked<{ kind?: string }>((doc, watermark) => isRecord(doc) && where(doc, watermark), VISITORS_PK)
      .map((found) => found.doc as VisitorRecord);
  const factsBetween = (day: string, after: number, upTo: number) =>
    documents
      .queryMarked<Fact>((doc, watermark) => doc.kind === 'fact' && watermark > after && watermark <= upTo, day)
      .sort((a, b) => a.watermark - b.watermark);
  return {
    watermarks: { settled: () => resolved(documents.lastMark()) },
    foldState: slot<FoldState>(documents, FOLD_STATE_ID),
    visitorsSummary: slot<VisitorsSummary>(documents, VISITORS_SUMMARY_ID),
    visits: slot<VisitsSummary>(documents, VISITS_SUMMARY_ID),
    facts: {
      on: (day, after, upTo) => resolved(factsBetween(day, after, upTo)),
      firstOn: (day, after, upTo, limit) => resolved(factsBetween(day, after, upTo).slice(0, limit)),
    },
    rollups: {
      read: (day) => resolved(documents.read<DayRollup>(day, DAY_ROLLUP_ID)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    periods: {
      read: (pk, id) => resolved(documents.read<PeriodRollup>(pk, id)),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    visitorDayPages: {
      byToken: (day, afterToken, limit) =>
        resolved(
          documents
            .query<VisitorDay>((doc) => doc.kind === 'visitor-day' && doc.token > afterToken, day)
            .sort((a, b) => (a.token === b.token ? (a.id < b.id ? -1 : 1) : a.token < b.token ? -1 : 1))
            .slice(0, limit),
        ),
    },
    activity: {
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
      touched: (day, tokens, hourIds) =>
        resolved(
          documents.queryMarked<ActivityDoc>(
            (doc) =>
              (doc.kind === 'visitor-day' && tokens.includes(doc.token)) || (doc.kind === 'activity-hour' && hourIds.includes(doc.id)),
            day,
          ),
        ),
      visitsOn: (day) => resolved(documents.query<VisitorDay>((doc) => doc.kind === 'visitor-day' && doc.visit, day).length),
    },
    landed: {
      changed: (after, upTo, limit) =>
        resolved(
          documents
            .queryMarked<LandedImport>(
              (doc, watermark) => doc.kind === 'import-landed' && watermark > after && watermark <= upTo,
              IMPORTS_PK,
            )
            .sort((a, b) => a.watermark - b.watermark)
            .slice(0, limit)
            .map(({ doc, watermark }) => ({ days: doc.days, watermark })),
        ),
    },
    recordCounts: {
      changed: (after, upTo, limit) =>
        resolved(
          documents
            .queryMarked<{ kind?: string }>((doc, watermark) => isRecord(doc) && watermark > after && watermark <= upTo, VISITORS_PK)
            .sort((a, b) => a.watermark - b.watermark)
            .slice(0, limit)
            .map(({ doc, watermark }) => {
              const { who, first_seen, counted_on, moved_days, counts_changed_at } = doc as VisitorRecord;
              return { who, first_seen, counted_on, moved_days, counts_changed_at, watermark };
            }),
        ),
      countsOn: (day) =>
        resolved({
          people: records((record) => record.who === 'people' && record.counted_on === day).length,
          scanners: records((record) => record.who === 'scanners' && record.first_seen === day).length,
        }),
    },
  };
}
