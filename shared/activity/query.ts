import { z } from 'zod';
import { parseWith } from '../http/body';
import { wholeNumberText } from '../schemas/whole-number';
import type { Result } from '../http/envelope';
import type { IncomingRequest } from '../http/request';

/** The longest window the Activity card reads, in days, and the one it reads when none is asked for. */
export const MAX_DAYS = 400;
export const DEFAULT_DAYS = 30;

const daysMessage = `must be a whole number of days from 1 to ${MAX_DAYS}`;

/** GET /api/admin/activity's query: `days`, 1 to 400, 30 when absent. Other parameters (a cache-buster) are let be. */
export const activityQuerySchema = z.object({
  days: wholeNumberText(1, MAX_DAYS, DEFAULT_DAYS, daysMessage),
});

/** GET /api/admin/activity/visitors's query: `day`, a real UTC calendar day, required. */
export const visitorsQuerySchema = z.object({
  day: z.iso.date({
    error: (issue) =>
      issue.input === undefined ? 'is required, as YYYY-MM-DD (a UTC day)' : 'must be a UTC day as YYYY-MM-DD, like 2026-10-23',
  }),
});

/** The query read with a schema, or a 400 naming each bad parameter. */
export function readQuery<S extends z.ZodType>(schema: S, request: IncomingRequest): Result<z.infer<S>> {
  return parseWith(schema, Object.fromEntries(request.query));
}
