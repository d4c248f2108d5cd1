import { z } from 'zod';
import { subjectSchema } from './hits';

export const count = () => z.int().min(0);

/** A UTC day as YYYY-MM-DD. */
export const utcDay = () => z.iso.date();

export const instant = () => z.iso.datetime({ offset: true });

export const FieldIssue = z
  .object({
    path: z.string().meta({ description: "The field's path in the request, joined with dots (`hits.3.at`), or `(body)`." }),
    message: z.string(),
  })
  .meta({ id: 'FieldIssue' });

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string().meta({
        description:
          'A word a program can test: `invalid_request`, `unauthorized`, `origin_not_allowed`, `not_found`, `payload_too_large`, `unsupported_media_type`, `queue_unavailable`, `store_unavailable`, …',
      }),
      message: z.string().meta({ description: 'One sentence naming the bad field first (`hits.3.at: is older than 7 days`).' }),
      issues: z.array(FieldIssue).min(1).optional(),
    }),
  })
  .meta({ id: 'Error', description: 'The one error envelope every endpoint answers with (host/http/envelope.ts).' });

/** Whether the store could answer, and how long it keeps what it keeps. */
export const Availability = z
  .object({ available: z.boolean(), reason: z.string(), retention: z.string().nullable() })
  .meta({ id: 'Availability' });

/** The store's operations since the process started. */
export const ActivityCost = z
  .object({
    operations: count(),
    reads: count(),
    writes: count(),
    queries: count(),
    failures: count(),
    request_units: z.number().min(0),
    day_file_bytes: count().optional().meta({
      description:
        "This answer's, with several filters or `!`: the bytes of the day files' columns it read from Blob Storage (the period and the one before), beside what the store's figures count of Cosmos DB.",
    }),
  })
  .meta({ id: 'ActivityCost' });

export const PathCount = z.object({ path: z.string(), requests: count() }).meta({ id: 'PathCount' });

export const HostCount = z.object({ host: z.string(), page_loads: count() }).meta({ id: 'HostCount' });

export const Subject = subjectSchema.meta({ id: 'Subject', description: 'A thing a QR code names: 1 to 64 letters, digits, `-` or `_`.' });

/** Every read says the zone its days are in, and from which day it holds when days kept before were in another. */
export const zoneFields = {
  time_zone: z.string().meta({ description: "The IANA time zone the site's days are local dates of, like `Europe/Paris`." }),
  time_zone_from: z.iso.date().optional().meta({
    description:
      'Only when days were kept in another zone before: the first local day the zone holds from (days before it stay as they were kept). Absent otherwise.',
  }),
};
