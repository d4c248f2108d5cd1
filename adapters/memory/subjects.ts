import type { SubjectRow, SubjectsStore, SubjectSummary, SubjectVisitor, VisitorCookieLink } from '../../shared/core/store/subjects';
import { subjectPk, subjectSummaryId, subjectVisitorId, VISITOR_COOKIES_PK, visitorCookieId } from '../../shared/core/store/subjects';
import type { MemoryDocuments } from './documents';

const rowOf = ({ subject, scans, unique, repeat, scanners, self, first_scan, last_scan }: SubjectSummary): SubjectRow => ({
  subject,
  scans,
  unique,
  repeat,
  scanners,
  self,
  first_scan,
  last_scan,
});

// Like Cosmos DB's ORDER BY: null before any string or number.
const compare = (a: unknown, b: unknown) =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : (a as string | number) < (b as string | number) ? -1 : 1;

/** Its continuation is the next row's offset. */
export function memorySubjects(documents: MemoryDocuments): SubjectsStore {
  const resolved = <T>(value: T) => Promise.resolve(value);
  return {
    visitors: {
      read: (subject, identity) => resolved(documents.read<SubjectVisitor>(subjectPk(subject), subjectVisitorId(subject, identity))),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
      of: (subject, identities) =>
        resolved(
          documents.queryMarked<SubjectVisitor>(
            (doc) => doc.kind === 'subject-visitor' && identities.includes(doc.identity),
            subjectPk(subject),
          ),
        ),
    },
    moves: {
      unmoved: (limit) =>
        resolved(documents.query<SubjectVisitor>((doc) => doc.kind === 'subject-visitor' && doc.derived !== true).slice(0, limit)),
      remove: (subject, id) => resolved(documents.delete(subjectPk(subject), id)),
    },
    summaries: {
      read: (subject) => resolved(documents.read<SubjectSummary>(subjectPk(subject), subjectSummaryId(subject))),
      create: (doc) => resolved(documents.create(doc)),
      replace: (doc, etag) => resolved(documents.replace(doc, etag)),
    },
    cookies: {
      read: (hash) => resolved(documents.read<VisitorCookieLink>(VISITOR_COOKIES_PK, visitorCookieId(hash))?.doc ?? null),
      create: (link) => resolved(documents.create(link)),
      unmoved: (limit) =>
        resolved(
          documents
            .queryMarked<VisitorCookieLink>((doc) => doc.kind === 'visitor-cookie' && doc.derived !== true, VISITOR_COOKIES_PK)
            .slice(0, limit),
        ),
      replace: (link, etag) => resolved(documents.replace(link, etag)),
    },
    list: ({ sort, order, limit, continuation }) => {
      const offset = continuation === null ? 0 : Number(continuation);
      if (!Number.isSafeInteger(offset) || offset < 0) return resolved('bad-continuation' as const);
      const sign = order === 'asc' ? 1 : -1;
      const all = documents
        .query<SubjectSummary>((doc) => doc.kind === 'subject-summary')
        .sort((a, b) => sign * compare(a[sort], b[sort]) || compare(a.subject, b.subject));
      const rows = all.slice(offset, offset + limit).map(rowOf);
      return resolved({ rows, continuation: offset + limit < all.length ? String(offset + limit) : null });
    },
  };
}
