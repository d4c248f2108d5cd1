import { SITE_SEPARATOR } from '../../shared/core/sites/keys';
import type { Container } from '@azure/cosmos';
import type { SubjectRow, SubjectsStore, SubjectSummary, SubjectVisitor, VisitorCookieLink } from '../../shared/core/store/subjects';
import { subjectPk, subjectSummaryId, subjectVisitorId, VISITOR_COOKIES_PK, visitorCookieId } from '../../shared/core/store/subjects';
import type { CosmosDocuments } from './documents';

const statusOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'number' ? error.code : undefined;

/** A query across partitions reads this site's only; the first site's partitions have no prefix. */
const siteOnly = (documents: CosmosDocuments) => (documents.scope.prefix === '' ? 'NOT CONTAINS(c.pk, @site)' : 'STARTSWITH(c.pk, @site)');

/** The local Cosmos server has no OFFSET/LIMIT, so the list pages by the SDK's continuation, sorted on a whitelisted field. */
export function cosmosSubjects(container: Container, documents: CosmosDocuments): SubjectsStore {
  return {
    visitors: {
      read: (subject, identity) => documents.read<SubjectVisitor>(subjectPk(subject), subjectVisitorId(subject, identity)),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
      of: (subject, identities) =>
        documents.queryMarked<SubjectVisitor>(
          "SELECT * FROM c WHERE c.kind = 'subject-visitor' AND ARRAY_CONTAINS(@ids, c.identity)",
          [{ name: '@ids', value: [...identities] }],
          subjectPk(subject),
        ),
    },
    moves: {
      unmoved: (limit) =>
        documents.query<SubjectVisitor>(
          `SELECT TOP ${Math.max(1, Math.floor(limit))} * FROM c WHERE c.kind = 'subject-visitor' AND NOT IS_DEFINED(c.derived) AND ${siteOnly(documents)}`,
          [{ name: '@site', value: documents.scope.prefix === '' ? SITE_SEPARATOR : documents.scope.prefix }],
        ),
      remove: (subject, id) => documents.remove(subjectPk(subject), id),
    },
    summaries: {
      read: (subject) => documents.read<SubjectSummary>(subjectPk(subject), subjectSummaryId(subject)),
      create: (doc) => documents.create(doc),
      replace: (doc, etag) => documents.replace(doc, etag),
    },
    cookies: {
      read: async (hash) => (await documents.read<VisitorCookieLink>(VISITOR_COOKIES_PK, visitorCookieId(hash)))?.doc ?? null,
      create: (link) => documents.create(link),
      unmoved: (limit) =>
        documents.queryMarked<VisitorCookieLink>(
          `SELECT TOP ${Math.max(1, Math.floor(limit))} * FROM c WHERE c.kind = 'visitor-cookie' AND NOT IS_DEFINED(c.derived)`,
          [],
          VISITOR_COOKIES_PK,
        ),
      replace: (link, etag) => documents.replace(link, etag),
    },
    list: async ({ sort, order, limit, continuation }) => {
      documents.counts.queries += 1;
      const site = siteOnly(documents);
      const query = {
        query: `SELECT c.subject, c.scans, c["unique"], c.repeat, c.scanners, c.self, c.first_scan, c.last_scan FROM c WHERE c.kind = @kind AND ${site} ORDER BY c["${sort}"] ${order.toUpperCase()}`,
        parameters: [
          { name: '@kind', value: 'subject-summary' },
          { name: '@site', value: documents.scope.prefix === '' ? SITE_SEPARATOR : documents.scope.prefix },
        ],
      };
      try {
        const page = await container.items
          .query<SubjectRow>(query, { maxItemCount: limit, continuationToken: continuation ?? undefined })
          .fetchNext();
        documents.counts.requestUnits += page.requestCharge ?? 0;
        return { rows: page.resources, continuation: page.continuationToken ?? null };
      } catch (error) {
        if (statusOf(error) === 400 || error instanceof SyntaxError) return 'bad-continuation';
        documents.counts.failures += 1;
        throw error;
      }
    },
  };
}
