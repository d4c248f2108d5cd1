import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeMessage } from '../../shared/core/message';
import { memoryLogger } from '../../shared/core/ports/logger';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { post } from '../support/http';
import { personHash, queued } from '../support/hits';

const hitsMessage = (id = randomUUID()) =>
  encodeMessage({ v: 1, id, hits: [queued('ann', '2026-10-23T10:00:00.000Z', { path: '/about' })] });
const decoded = (text: string) => Buffer.from(text, 'base64').toString('utf8');

async function texts(client: TestHost['queue']): Promise<string[]> {
  const seen = await client.peekMessages({ numberOfMessages: 32 });
  return seen.peekedMessageItems.map((message) => message.messageText);
}

describe('replay-poison, run through the local host as the real host runs a timer on demand', () => {
  let t: TestHost | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  it('puts a readable poison message back on hits with its id, leaves an unreadable one, and logs counts only', async () => {
    const logger = memoryLogger();
    // No queue listener: what is put back stays on hits to be looked at.
    t = await startTestHost({ queues: false, overrides: { logger } });
    const id = randomUUID();
    const readable = hitsMessage(id);
    const unreadable = Buffer.from(JSON.stringify({ v: 1, id: randomUUID(), hits: 'not a list' })).toString('base64');
    await t.poison.sendMessage(readable);
    await t.poison.sendMessage(unreadable);

    const ran = await post(`${t.host.url}/admin/functions/replay-poison`, {});
    expect(ran.status).toBe(202);

    const onHits = await texts(t.queue);
    expect(onHits).toEqual([readable]);
    expect(JSON.parse(decoded(onHits[0]!)).id).toBe(id);
    expect(await texts(t.poison)).toEqual([unreadable]);

    const lines = logger.lines.filter((line) => line.includes('"replay-poison"'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'info',
      moved: 1,
      left_unreadable: 1,
      left_over_bound: 0,
      left_failed: 0,
      queues: { hits: { moved: 1, left_unreadable: 1 }, imports: { moved: 0, left_unreadable: 0 } },
    });
    for (const line of logger.lines) {
      expect(line).not.toContain(readable);
      expect(line).not.toContain(unreadable);
      expect(line).not.toContain('/about');
    }
  });

  it("puts each queue's poison back on that queue: an imported message on imports (never on hits), by the same run", async () => {
    const logger = memoryLogger();
    t = await startTestHost({ queues: false, overrides: { logger } });
    const live = hitsMessage();
    const imported = encodeMessage({ v: 1, id: randomUUID(), hits: [queued('ivy', '2026-06-01T08:00:00.000Z', { path: '/old' })] });
    const unreadable = Buffer.from('{"v":1,"hits":"no"}').toString('base64');
    await t.poison.sendMessage(live);
    await t.importPoison.sendMessage(imported);
    await t.importPoison.sendMessage(unreadable);

    expect((await post(`${t.host.url}/admin/functions/replay-poison`, {})).status).toBe(202);

    expect(await texts(t.queue)).toEqual([live]);
    expect(await texts(t.imports)).toEqual([imported]);
    expect(await texts(t.poison)).toEqual([]);
    expect(await texts(t.importPoison)).toEqual([unreadable]);
    const lines = logger.lines.filter((line) => line.includes('"replay-poison"'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'info',
      moved: 2,
      left_unreadable: 1,
      queues: { hits: { moved: 1, left_unreadable: 0 }, imports: { moved: 1, left_unreadable: 1 } },
    });
    for (const line of logger.lines) expect(line).not.toContain('/old');
  });

  it('keeps an imported message replayed from poison by keep-imports, as one delivery of it', async () => {
    t = await startTestHost({ overrides: { logger: memoryLogger() } });
    await containerOf(t.env);
    const id = randomUUID();
    const imported = encodeMessage({ v: 1, id, hits: [queued('ivy', '2026-06-01T08:00:00.000Z', { path: '/old' })] });
    await t.importPoison.sendMessage(imported);
    expect((await post(`${t.host.url}/admin/functions/replay-poison`, {})).status).toBe(202);
    await t.host.drain();
    expect(t.host.listeners().get('keep-imports')!.stats()).toMatchObject({ invocations: 1, failures: 0, poisoned: 0 });
    expect(t.host.listeners().get('keep-hits')!.stats().invocations).toBe(0);
    // Kept as an import: the person's record from its old day, and the note that names the day for the fold.
    expect((await t.root.store.records.read(personHash('ivy')))?.doc.first_seen).toBe('2026-06-01');
    expect(await t.root.store.landed.changed(0, Number.MAX_SAFE_INTEGER, 10)).toEqual([
      { days: ['2026-06-01'], watermark: expect.any(Number) },
    ]);
    expect(await texts(t.importPoison)).toEqual([]);
  });

  it('leaves a message in poison once it has been put back REPLAY_MAX times', async () => {
    const logger = memoryLogger();
    t = await startTestHost({ queues: false, env: { REPLAY_MAX: '2' }, overrides: { logger } });
    const text = hitsMessage();
    await t.poison.sendMessage(text);
    for (let replay = 1; replay <= 2; replay++) {
      expect((await post(`${t.host.url}/admin/functions/replay-poison`, {})).status).toBe(202);
      // It fails again and goes back to poison, as during a long outage: taken off hits, put in poison as it was.
      const back = await t.queue.receiveMessages({ numberOfMessages: 32 });
      expect(back.receivedMessageItems.map((m) => m.messageText)).toEqual([text]);
      await t.queue.deleteMessage(back.receivedMessageItems[0]!.messageId, back.receivedMessageItems[0]!.popReceipt);
      await t.poison.sendMessage(text);
    }
    // At the bound: it stays.
    expect((await post(`${t.host.url}/admin/functions/replay-poison`, {})).status).toBe(202);
    expect(await texts(t.queue)).toEqual([]);
    expect(await texts(t.poison)).toEqual([text]);
    const last = JSON.parse(logger.lines.filter((line) => line.includes('"replay-poison"')).at(-1)!);
    expect(last).toMatchObject({ moved: 0, left_over_bound: 1, replay_max: 2 });
  });
});
