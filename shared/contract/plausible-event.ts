import { z } from 'zod';

// POST /api/event: Plausible's Events API as its trackers send it, so a site that uses one moves by changing its host.

const text = (most: number) => z.string({ error: 'must be a string' }).max(most, `must be at most ${most} characters`);

export const plausibleEventSchema = z
  .object({
    /** The event's name: `pageview`, `engagement`, or a custom event. */
    n: text(120).min(1, 'must not be empty'),
    /** The page's URL: its path (and its hash with `h`) and, as the beacon's, only its query's campaign tags. */
    u: z.url({ error: 'must be the URL of the page' }).max(2048),
    /** The site's domain as the tracker names it. */
    d: text(253).min(1, 'must not be empty'),
    r: text(2048).nullish(),
    /** Custom props: strings, numbers or booleans, read as strings. */
    p: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullish(),
    /** Hash-based routing: the hash is part of the page. */
    h: z.union([z.literal(1), z.literal(0), z.boolean()]).optional(),
    /** Engagement events: engaged milliseconds and the deepest scroll (0-100). */
    e: z.int().min(0).max(86_400_000).optional(),
    sd: z.int().min(0).max(100).optional(),
    $: z.unknown().optional(),
    revenue: z.unknown().optional(),
  })
  // The trackers send more than headcount reads (`w`, `v`, `i`): those are let be, never refused.
  .loose();

export type PlausibleEvent = z.infer<typeof plausibleEventSchema>;
