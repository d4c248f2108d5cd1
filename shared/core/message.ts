import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { EVENT_NAME, propsSchema } from './events/events';
import { BOT_REASONS } from './identity/who';
import { siteNameSchema } from './sites/sites';
import { NAMES, type NamesHit } from './dimensions';

const hex32 = z.string().regex(/^[0-9a-f]{32}$/);
const audienceName = z.string().regex(/^[a-z0-9 .-]{1,32}$/);
const namesFields = Object.fromEntries(NAMES.map((row) => [row.hit, audienceName.optional()])) as Record<
  NamesHit,
  z.ZodOptional<typeof audienceName>
>;
const tag = z
  .string()
  .regex(/^[\p{L}\p{N}._~+-]{1,40}$/u)
  .nullable();

/** Messages queued before `served_by` carry it as `store`, its first name. */
const servedByNamed = (hit: unknown) => {
  if (typeof hit !== 'object' || hit === null || !('store' in hit) || 'served_by' in hit) return hit;
  const { store, ...rest } = hit;
  return { ...rest, served_by: store };
};

/** Nothing in a queued hit can name a person. */
const queuedHitShape = z.strictObject({
  at: z.iso.datetime({ offset: false }),
  token: hex32,
  person: hex32.nullable(),
  /** True when `person` is the derived person id; absent when it is the person hash, which keep-hits maps once switched. */
  person_derived: z.literal(true).optional(),
  network: z.string().max(64),
  path: z.string().startsWith('/').max(512),
  served_by: z.string().regex(/^[a-z0-9-]{1,32}$/),
  bot: z.boolean(),
  /** Null for a person; absent on messages queued before it was carried. */
  reason: z.enum(BOT_REASONS).nullable().optional(),
  self: z.boolean(),
  source: z.string().max(253).nullable(),
  /** Absent on older messages, read as not a page load. */
  page_load: z.boolean().optional(),
  subject: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .nullable(),
  /** Two letters, `XX` unknown; absent on older messages. */
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional(),
  /** Each `names` dimension (browser, system, device): lowercase, no versions; absent on older messages. */
  ...namesFields,
  /** Null or absent when the page load carried no tags. */
  campaign: z.strictObject({ source: tag, medium: tag, campaign: tag }).nullable().optional(),
  /** Absent when the request is not an event. */
  event: z.string().regex(EVENT_NAME).optional(),
  props: propsSchema.optional(),
  /** Absent on messages queued before sites: the first declared site. */
  site: siteNameSchema.optional(),
  /** A page's engagement, joined to its page load's visitor-day (`at` is the page load's instant); absent on every other hit. */
  engagement: z.strictObject({ ms: z.number().int().min(0).max(86400000), scroll: z.number().int().min(0).max(100) }).optional(),
});

export const queuedHitSchema = z.preprocess(servedByNamed, queuedHitShape);

export type QueuedHit = z.infer<typeof queuedHitShape>;

/** The unique id makes keeping exactly-once. */
export const hitsMessageSchema = z.strictObject({
  v: z.literal(1),
  id: z.uuid(),
  hits: z.array(queuedHitSchema).min(1),
});

export type HitsMessage = z.infer<typeof hitsMessageSchema>;

/** Azure Storage's limit for a message, once base64-encoded. */
export const MAX_MESSAGE_BYTES = 64 * 1024;

/** Base64 of the JSON, the Functions host's default encoding. */
export function encodeMessage(message: HitsMessage): string {
  return Buffer.from(JSON.stringify(message), 'utf8').toString('base64');
}

export const encodedLength = (jsonBytes: number) => 4 * Math.ceil(jsonBytes / 3);

/** Sized with a placeholder as long as a uuid. */
export const MESSAGE_OVERHEAD_BYTES = Buffer.byteLength(
  JSON.stringify({ v: 1, id: '00000000-0000-0000-0000-000000000000', hits: [] }),
  'utf8',
);

/** One hit's bytes in `hits`, its comma included. */
export const hitBytes = (hit: QueuedHit): number => Buffer.byteLength(JSON.stringify(hit), 'utf8') + 1;

/** `jsonBytes` includes the overhead. */
export const fitsOneMessage = (jsonBytes: number): boolean => encodedLength(jsonBytes) <= MAX_MESSAGE_BYTES;

/** A hit is never split, and one hit always fits since every field is bounded. */
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

/** The trigger hands over parsed JSON, a string or bytes. */
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
