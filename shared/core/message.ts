import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { EVENT_NAME, propsSchema } from './events/events';
import { BOT_REASONS } from './identity/kinds';
import { siteNameSchema } from './sites/sites';

const hex32 = z.string().regex(/^[0-9a-f]{32}$/);
const audienceName = z.string().regex(/^[a-z0-9 .-]{1,32}$/);
const tag = z
  .string()
  .regex(/^[\p{L}\p{N}._~+-]{1,40}$/u)
  .nullable();

/** One hashed hit as it travels on the queue: nothing in it can name a person. */
export const queuedHitSchema = z.strictObject({
  at: z.iso.datetime({ offset: false }),
  token: hex32,
  person: hex32.nullable(),
  network: z.string().max(64),
  path: z.string().startsWith('/').max(512),
  store: z.string().regex(/^[a-z0-9-]{1,32}$/),
  bot: z.boolean(),
  /** Why the hit looked like a bot, null for a person's (absent on messages queued before it was carried). */
  reason: z.enum(BOT_REASONS).nullable().optional(),
  self: z.boolean(),
  source: z.string().max(253).nullable(),
  /** Whether the request was a page load (absent on messages queued before it was carried: not one). */
  page_load: z.boolean().optional(),
  subject: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .nullable(),
  /** The address's country, two letters (`XX` unknown); absent on messages queued before countries were looked up. */
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional(),
  /** The browser, system and device type of the agent family (lowercase, no versions); absent on older messages. */
  browser: audienceName.optional(),
  system: audienceName.optional(),
  device: audienceName.optional(),
  /** The page load's campaign tags (shared/core/identity/campaign.ts); null or absent when it carried none. */
  campaign: z.strictObject({ source: tag, medium: tag, campaign: tag }).nullable().optional(),
  /** An event's name and props (shared/core/events/events.ts); absent on a request that is not an event. */
  event: z.string().regex(EVENT_NAME).optional(),
  props: propsSchema.optional(),
  /** The site the hit was served by (SITES); absent on messages queued before sites: the first declared site. */
  site: siteNameSchema.optional(),
});

export type QueuedHit = z.infer<typeof queuedHitSchema>;

/** The queue message: version, a unique id (for exactly-once keeping), and its hits. */
export const hitsMessageSchema = z.strictObject({
  v: z.literal(1),
  id: z.uuid(),
  hits: z.array(queuedHitSchema).min(1),
});

export type HitsMessage = z.infer<typeof hitsMessageSchema>;

/** The most a queue message may hold once base64-encoded, Azure Storage's limit. */
export const MAX_MESSAGE_BYTES = 64 * 1024;

/** The message as the queue carries it: base64 of its JSON, the Functions host's default encoding. */
export function encodeMessage(message: HitsMessage): string {
  return Buffer.from(JSON.stringify(message), 'utf8').toString('base64');
}

/** The length of `jsonBytes` of JSON once base64-encoded. */
export const encodedLength = (jsonBytes: number) => 4 * Math.ceil(jsonBytes / 3);

/** The JSON bytes of a message with no hits, sized with a placeholder of a uuid's length. */
export const MESSAGE_OVERHEAD_BYTES = Buffer.byteLength(
  JSON.stringify({ v: 1, id: '00000000-0000-0000-0000-000000000000', hits: [] }),
  'utf8',
);

/** The JSON bytes one hit adds to a message's `hits` (its comma included). */
export const hitBytes = (hit: QueuedHit): number => Buffer.byteLength(JSON.stringify(hit), 'utf8') + 1;

/** Whether a message of `jsonBytes` (overhead included) is within the queue's limit once encoded. */
export const fitsOneMessage = (jsonBytes: number): boolean => encodedLength(jsonBytes) <= MAX_MESSAGE_BYTES;

/**
 * The hits as few messages as fit under the queue's limit and carry at most `maxHits` each, each with its own id, in
 * order. A hit is never split; a single hit always fits, since every field of it is bounded.
 */
export function toMessages(
  hits: readonly QueuedHit[],
  newId: () => string = randomUUID,
  maxHits = Number.POSITIVE_INFINITY,
): HitsMessage[] {
  const messages: HitsMessage[] = [];
  let current: QueuedHit[] = [];
  let bytes = MESSAGE_OVERHEAD_BYTES;
  for (const hit of hits) {
    const size = hitBytes(hit);
    if (current.length > 0 && (current.length >= maxHits || !fitsOneMessage(bytes + size))) {
      messages.push({ v: 1, id: newId(), hits: current });
      current = [];
      bytes = MESSAGE_OVERHEAD_BYTES;
    }
    current.push(hit);
    bytes += size;
  }
  if (current.length > 0) messages.push({ v: 1, id: newId(), hits: current });
  return messages;
}

/** A queue payload as the trigger hands it over (already JSON-parsed, a string, or bytes), read with the schema. */
export function readMessage(payload: unknown): { ok: true; message: HitsMessage } | { ok: false; reason: string } {
  let value = payload;
  if (typeof value === 'string' || Buffer.isBuffer(value)) {
    const text = value.toString();
    try {
      value = JSON.parse(text);
    } catch {
      try {
        value = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
      } catch {
        return { ok: false, reason: 'the message is not JSON' };
      }
    }
  }
  const parsed = hitsMessageSchema.safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data };
  const first = parsed.error.issues[0];
  return { ok: false, reason: `${first?.path.join('.') || 'message'}: ${first?.message ?? 'invalid'}` };
}
