import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES, encodeMessage, hitsMessageSchema, readMessage, toMessages, type QueuedHit } from '../../shared/core/message';
import { MAX_PATH_LENGTH } from '../../shared/core/identity/paths';

const hex = (n: number) => n.toString(16).padStart(32, '0');

/** A hit as classify makes one, its path as long as a kept path may be. */
function hit(index: number, pathLength = MAX_PATH_LENGTH): QueuedHit {
  const path = `/${index}/`.padEnd(pathLength, 'p');
  return {
    at: new Date(Date.UTC(2026, 9, 23, 10, 0, index % 60)).toISOString(),
    token: hex(index),
    person: index % 7 === 0 ? null : hex(index + 100_000),
    network: `203.0.${index % 256}.x`,
    path,
    served_by: 'site',
    bot: index % 3 === 0,
    self: index % 7 === 0,
    source: index % 2 === 0 ? `host-${index}.example.com` : null,
    subject: index % 5 === 0 ? `tree-${index}` : null,
  };
}

const decode = (encoded: string) => JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as unknown;

describe('the queue message', () => {
  it('splits 500 hits with long paths into several messages, each at most 64 KB encoded, none empty', () => {
    const hits = Array.from({ length: 500 }, (_, i) => hit(i));
    const messages = toMessages(hits);
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) {
      expect(message.hits.length).toBeGreaterThan(0);
      expect(Buffer.byteLength(encodeMessage(message), 'utf8')).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    }
  });

  it('keeps every hit, in order, unchanged, across the messages', () => {
    const hits = Array.from({ length: 500 }, (_, i) => hit(i));
    const messages = toMessages(hits);
    expect(messages.flatMap((message) => message.hits)).toEqual(hits);
  });

  it('gives each message its own uuid', () => {
    const messages = toMessages(Array.from({ length: 500 }, (_, i) => hit(i)));
    const ids = messages.map((message) => message.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('fills each message close to the limit rather than splitting early', () => {
    const messages = toMessages(Array.from({ length: 500 }, (_, i) => hit(i)));
    for (const message of messages.slice(0, -1)) {
      const next = { ...message, hits: [...message.hits, message.hits[0]!] };
      expect(Buffer.byteLength(encodeMessage(next), 'utf8')).toBeGreaterThan(MAX_MESSAGE_BYTES);
    }
  });

  it('sends few short hits as one message', () => {
    const hits = Array.from({ length: 20 }, (_, i) => hit(i, 10));
    const messages = toMessages(hits);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.hits).toEqual(hits);
  });

  it('makes no message at all from no hits', () => {
    expect(toMessages([])).toEqual([]);
  });

  it('keeps the limit for hits whose paths grow when written as JSON or UTF-8', () => {
    const wide = Array.from({ length: 300 }, (_, i) => ({
      ...hit(i),
      path: `/${'\u00e9\u{1F600}"\\'.repeat(100)}`.slice(0, MAX_PATH_LENGTH),
    }));
    const messages = toMessages(wide);
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) expect(encodeMessage(message).length).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(messages.flatMap((message) => message.hits)).toEqual(wide);
  });

  it('is base64 of JSON that the message schema reads back, every one of them', () => {
    const hits = Array.from({ length: 500 }, (_, i) => hit(i));
    for (const message of toMessages(hits)) {
      const encoded = encodeMessage(message);
      expect(encoded).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
      const parsed = hitsMessageSchema.safeParse(decode(encoded));
      expect(parsed.success, parsed.success ? '' : parsed.error.message).toBe(true);
      expect(readMessage(encoded)).toEqual({ ok: true, message });
    }
  });

  it('uses the ids it is given, one per message', () => {
    const ids = Array.from({ length: 50 }, () => randomUUID());
    let next = 0;
    const messages = toMessages(
      Array.from({ length: 500 }, (_, i) => hit(i)),
      () => ids[next++]!,
    );
    expect(messages.map((message) => message.id)).toEqual(ids.slice(0, messages.length));
    expect(next).toBe(messages.length);
  });

  it('refuses, when read, a message that breaks the schema, naming the field', () => {
    const [message] = toMessages([hit(1, 10)]);
    const bad = { ...message!, hits: [{ ...message!.hits[0]!, token: '203.0.113.7' }] };
    expect(readMessage(encodeMessage(bad as never))).toMatchObject({ ok: false, reason: expect.stringContaining('hits.0.token') });
    expect(readMessage('not json, not base64 json')).toMatchObject({ ok: false });
    expect(readMessage(encodeMessage({ ...message!, hits: [] }))).toMatchObject({ ok: false });
  });
});
