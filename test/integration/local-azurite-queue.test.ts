import { createRequire } from 'node:module';
import { QueueClient } from '@azure/storage-queue';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';

// Azurite's own queue store and LokiJS, in this process, as azurite-process.cjs patches them inside Azurite's.
const azuritePackage = require.resolve('azurite/package.json');
const azurite = createRequire(azuritePackage);
const { installQueueIndex } = createRequire(__filename)('../../local/azurite-process.cjs') as {
  installQueueIndex: (azuritePackage: string) => void;
};

interface Message {
  accountName: string;
  queueName: string;
  messageId: string;
  popReceipt: string;
  timeNextVisible: Date;
  insertionTime: Date;
  expirationTime: Date;
  dequeueCount: number;
  persistency: { id: string; offset: number; count: number };
}
interface Store {
  init(): Promise<void>;
  createQueue(queue: object): Promise<void>;
  insertMessage(message: Message): Promise<void>;
  getMessages(account: string, queue: string, visible: Date, popReceipt: string, count: number): Promise<Message[]>;
  deleteMessage(account: string, queue: string, messageId: string, popReceipt: string): Promise<void>;
  updateMessage(
    message: Pick<Message, 'accountName' | 'queueName' | 'messageId' | 'popReceipt' | 'timeNextVisible'>,
    popReceipt: string,
  ): Promise<void>;
  getMessagesCount(account: string, queue: string): Promise<number>;
  peekMessages(account: string, queue: string, count: number): Promise<Message[]>;
}
interface ExtentStore {
  init(): Promise<void>;
  updateExtent(extent: { id: string; locationId: string; path: string; size: number; lastModifiedInMS: number }): Promise<void>;
  deleteExtent(id: string): Promise<void>;
  listExtents(): Promise<[{ id: string }[], number | undefined]>;
}
type InMemory<T> = { default: new (path: string, inMemory: boolean) => T };
const Store = (azurite('./dist/src/queue/persistence/LokiQueueMetadataStore.js') as InMemory<Store>).default;
const ExtentStore = (azurite('./dist/src/common/persistence/LokiExtentMetadataStore.js') as InMemory<ExtentStore>).default;
const lokijs = azurite('lokijs') as {
  Collection: { prototype: { ensureIndex: (property: string, force?: boolean) => void } };
  Resultset: { prototype: { compoundsort: (...args: unknown[]) => unknown; filteredrows: number[] } };
};
const Collection = lokijs.Collection.prototype;
const Resultset = lokijs.Resultset.prototype;

const ACCOUNT = 'devstoreaccount1';
const START = Date.parse('2026-03-01T00:00:00Z');

/** Documents LokiJS sorted in this process since it started. */
let sortedRows = 0;
const { compoundsort } = Resultset;
Resultset.compoundsort = function (this: typeof Resultset, ...args: unknown[]) {
  sortedRows += this.filteredrows.length;
  return compoundsort.apply(this, args);
};

/** What `work` answers, and how many times it had LokiJS build an index. */
async function counted<T>(work: () => Promise<T>): Promise<{ answers: T; builds: number }> {
  let builds = 0;
  const { ensureIndex } = Collection;
  Collection.ensureIndex = function (this: unknown, property: string, force?: boolean) {
    builds += 1;
    return ensureIndex.call(this, property, force);
  };
  try {
    return { answers: await work(), builds };
  } finally {
    Collection.ensureIndex = ensureIndex;
  }
}

/** The same calls on a new in-memory store, on a clock of its own: what each answered, the index builds, and the documents its receives sorted. */
async function script(backlog: number) {
  vi.setSystemTime(START);
  const store = new Store(`/nonexistent/queue-${Math.random()}`, true);
  await store.init();
  for (const name of ['main', 'other'])
    await store.createQueue({ accountName: ACCOUNT, name, metadata: {}, queueAcl: [], properties: { approximateMessagesCount: 0 } });
  const message = (queueName: string, n: number, expiresIn: number): Message => ({
    accountName: ACCOUNT,
    queueName,
    messageId: `${queueName}-${n}`,
    popReceipt: 'first',
    timeNextVisible: new Date(START + (n % 7) * 1000),
    insertionTime: new Date(START),
    expirationTime: new Date(START + expiresIn * 1000),
    dequeueCount: 0,
    persistency: { id: 'extent', offset: n, count: 1 },
  });
  // One message in ten expires, a few at a time, while the calls run.
  for (let n = 0; n < backlog; n += 1)
    await store.insertMessage(message(n % 5 === 0 ? 'other' : 'main', n, n % 10 === 1 ? 5 + (n % 100) : 3_600));

  let sortedByReceives = 0;
  const run = await counted(async () => {
    const answers: unknown[] = [];
    for (let round = 0; round < 12; round += 1) {
      vi.setSystemTime(START + round * 5_000);
      const sortedBefore = sortedRows;
      const received = await store.getMessages(ACCOUNT, 'main', new Date(START + round * 5_000 + 60_000), `receipt-${round}`, 16);
      sortedByReceives += sortedRows - sortedBefore;
      answers.push(received.map((one) => [one.messageId, one.dequeueCount, one.timeNextVisible.getTime(), one.popReceipt]));
      for (const one of received.filter((_, i) => i % 2 === 0)) await store.deleteMessage(ACCOUNT, 'main', one.messageId, one.popReceipt);
      // A failed invocation's message made visible again sooner, as the local host does, ahead of the ones not yet received.
      for (const one of received.filter((_, i) => i % 4 === 1)) {
        const again = { ...one, popReceipt: `again-${round}`, timeNextVisible: new Date(START + round * 5_000 + 2_000) };
        await store.updateMessage(again, one.popReceipt);
      }
      answers.push(await store.getMessagesCount(ACCOUNT, 'main'), await store.getMessagesCount(ACCOUNT, 'other'));
      answers.push((await store.peekMessages(ACCOUNT, 'other', 4)).map((one) => one.messageId));
    }
    return answers;
  });
  return { ...run, sortedByReceives };
}

/** Azurite's collector's calls on its extents' store: 2,000 extents, then 500 of them removed one at a time. */
async function collect() {
  const store = new ExtentStore(`/nonexistent/extents-${Math.random()}`, true);
  await store.init();
  for (let n = 0; n < 2_000; n += 1)
    await store.updateExtent({ id: `extent-${n}`, locationId: 'memory', path: `extent-${n}`, size: n, lastModifiedInMS: START + n });
  return counted(async () => {
    for (let n = 0; n < 2_000; n += 4) await store.deleteExtent(`extent-${n}`);
    const [left] = await store.listExtents();
    return left.map((extent) => extent.id);
  });
}

describe("Azurite's queue store in the local stack", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers every queue call and collection as Azurite does, without building an index again for each', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // Azurite as published first (installQueueIndex changes this process for good), then patched, on the same calls.
    const published = { queue: await script(2_000), collector: await collect() };
    installQueueIndex(azuritePackage);
    const patched = { queue: await script(2_000), collector: await collect() };

    expect(patched.queue.answers).toEqual(published.queue.answers);
    expect(patched.collector.answers).toEqual(published.collector.answers);
    expect(patched.collector.answers).toHaveLength(1_500);
    // Messages expired part way through, and so were neither received nor counted.
    const [, firstCount] = published.queue.answers as number[];
    expect(published.queue.answers.at(-3)).toBeLessThan(firstCount! - 12 * 8);
    // Published, every call rebuilt the four message indices (the one extent index for each removal); patched, none.
    expect(published.queue.builds).toBeGreaterThanOrEqual(12 * 4 * 4);
    expect(published.collector.builds).toBeGreaterThanOrEqual(500);
    expect(patched.queue.builds).toBe(0);
    expect(patched.collector.builds).toBe(0);
    // Published, each receive sorted every visible message of the queue to take 16; patched, a receive sorts only those.
    expect(published.queue.sortedByReceives).toBeGreaterThan(12 * 1_000);
    expect(patched.queue.sortedByReceives).toBe(0);
  });

  it('still drops an expired message in the Azurite the tests run', async () => {
    const queue = new QueueClient(inject('stack').queueConnectionString, `expiry-${Date.now()}`);
    await queue.create();
    await queue.sendMessage('short', { messageTimeToLive: 1 });
    await queue.sendMessage('long');
    // Asked as if 2 s later (test/support/azurite-clock.cjs): past the short one's time to live, without waiting for it.
    const later = { requestOptions: { customHeaders: { 'x-local-clock-ahead-ms': '2000' } } };
    const received = await queue.receiveMessages({ numberOfMessages: 32, ...later });
    expect(received.receivedMessageItems.map((one) => one.messageText)).toEqual(['long']);
    // Dropped, not just passed over: it is gone at the machine's time too.
    expect((await queue.getProperties()).approximateMessagesCount).toBe(1);
    await queue.delete();
  });
});
