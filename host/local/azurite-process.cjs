'use strict';
// Plain JavaScript, not TypeScript: it runs inside Azurite's own process, which a TypeScript loader would slow to start
// by more than a second.

const { createRequire, Module } = require('node:module');
const { checkStandIn, installOnce } = require('./stand-ins.cjs');

// Azurite keeps its queues' messages, and the extents holding their text, in LokiJS collections with binary indices,
// and LokiJS rebuilds every index of a collection (a sort of all its documents, each) after any batch removal, even an
// empty one (which also first maps every document to its position), and after any batch update. Azurite does both on
// every queue call: each receive, delete and update first removes the expired messages, found by scanning them all
// (`expirationTime` has no index), and a receive updates its messages as a batch. Its garbage collector, every minute,
// removes each extent no message uses any more, one batch of one at a time. So each call costs time in proportion to
// the messages held, and the collector in the square of them: at 2,000 queued messages a message drained cost Azurite
// 6.4 ms of CPU (about 150 a second at most), and one collection after 4,000 messages took 58 s of it, during which
// the queue barely moved.
// Here a batch of up to BATCH_ONE_BY_ONE documents is removed or updated one by one, each keeping the indices sorted
// as a single removal or update does, and removing nothing does nothing; the expired messages are found through an
// index of their own. The collections hold the same documents and every call answers the same: only the work differs.
// A receive then still filtered every message held and sorted the visible ones to take the first few (at 10,000 queued
// it was a third of Azurite's CPU in the scale bench), and each removal walked the indices on `accountName` and
// `queueName`, which every message shares, and on `visibleTime`, a field no message has: here the messages are indexed
// on `timeNextVisible` instead, and a receive walks that index from its start.
/** Up to this many, one at a time costs less than a rebuild (each is a pass over an index, a rebuild a sort of it). */
const BATCH_ONE_BY_ONE = 64;

/**
 * Makes Azurite's queue calls and its collector, in this process, cost the same whatever the number of messages queued.
 * @param {string} azuritePackage the path of Azurite's package.json, so the modules patched are the ones it loads
 */
function installQueueIndex(azuritePackage) {
  const azurite = createRequire(azuritePackage);
  const packages = [
    ['azurite', azurite.resolve],
    ['lokijs', azurite.resolve],
  ];
  installOnce('azurite-process.cjs', packages, () => {
    const collection = azurite('lokijs').Collection.prototype;
    // Two ways in: a batch of documents (or their ids), which LokiJS first maps to positions by indexing every document
    // in the collection; and a batch of positions, from a query's results.
    const removeBatch = collection.removeBatch;
    collection.removeBatch = function (batch) {
      if (batch.length > BATCH_ONE_BY_ONE) return removeBatch.call(this, batch);
      for (const doc of batch) this.remove(doc);
    };
    const removeBatchByPositions = collection.removeBatchByPositions;
    collection.removeBatchByPositions = function (positions) {
      if (positions.length > BATCH_ONE_BY_ONE) return removeBatchByPositions.call(this, positions);
      // The documents first: each removal moves the positions after it.
      for (const doc of positions.map((position) => this.data[position])) this.remove(doc);
    };
    const update = collection.update;
    collection.update = function (doc) {
      if (!Array.isArray(doc) || doc.length > BATCH_ONE_BY_ONE) return update.call(this, doc);
      for (const one of doc) update.call(this, one);
      return undefined;
    };

    const store = azurite('./dist/src/queue/persistence/LokiQueueMetadataStore.js').default.prototype;
    const init = store.init;
    store.init = async function () {
      await init.call(this);
      const messages = this.db.getCollection(this.MESSAGES_COLLECTION);
      // The queries that named these first now scan the messages once, as the index answered all of them anyway.
      for (const unselective of ['accountName', 'queueName', 'visibleTime']) delete messages.binaryIndices[unselective];
      messages.ensureIndex('expirationTime');
      messages.ensureIndex('timeNextVisible');
    };
    // Azurite's own receive, with its messages found by visibleFirst and each updated as it changes, which keeps the index
    // on timeNextVisible sorted (a batch changed first and updated after would leave it out of order).
    store.getMessages = async function (account, queue, timeNextVisible, popReceipt, numOfMessages, queryDate, context) {
      this.checkQueueExist(account, queue, context);
      this.clearExpiredMessages(account, queue, context);
      const messages = this.db.getCollection(this.MESSAGES_COLLECTION);
      const queryTime = queryDate ? queryDate.getTime() : Date.now();
      const docs = visibleFirst(messages, account, queue, queryTime, numOfMessages === undefined || numOfMessages < 1 ? 1 : numOfMessages);
      const visibleAt = timeNextVisible.getTime();
      for (const doc of docs) {
        doc.timeNextVisible = visibleAt;
        doc.popReceipt = popReceipt;
        doc.dequeueCount = Number(doc.dequeueCount) + 1;
        messages.update(doc);
      }
      return docs.map((doc) => {
        doc.timeNextVisible = timeNextVisible;
        const copy = this.messageCopy(doc);
        doc.timeNextVisible = visibleAt;
        return copy;
      });
    };
    // Azurite's own query with the indexed condition first: LokiJS answers a query's first condition from its index.
    store.clearExpiredMessages = async function (account, queue, context) {
      this.checkQueueExist(account, queue, context);
      const messages = this.db.getCollection(this.MESSAGES_COLLECTION);
      messages.remove(
        messages
          .chain()
          .find({ expirationTime: { $lte: Date.now() }, accountName: account, queueName: queue })
          .data(),
      );
    };
  });
}

/**
 * The first `count` messages of a queue visible at `queryTime`, in Azurite's order (the earliest visible first, then
 * the earliest sent), read from the index on timeNextVisible up to the last message that could be among them.
 */
function visibleFirst(messages, account, queue, queryTime, count) {
  const index = messages.binaryIndices.timeNextVisible;
  if (index.dirty) messages.ensureIndex('timeNextVisible', true);
  const found = [];
  for (const position of index.values) {
    const doc = messages.data[position];
    if (doc.timeNextVisible > queryTime) break;
    // Past the count, only messages visible at the same moment as the last one found can still come before it.
    if (found.length >= count && doc.timeNextVisible > found[found.length - 1].timeNextVisible) break;
    if (doc.accountName === account && doc.queueName === queue) found.push(doc);
  }
  return found.sort((a, b) => a.timeNextVisible - b.timeNextVisible || a.$loki - b.$loki).slice(0, count);
}

/**
 * Leaves Azurite's telemetry package out of this process. Azurite loads `applicationinsights`, and OpenTelemetry's SDKs
 * under it, as it starts, even with --disableTelemetry, and then never calls it: of the 1.9 s of CPU Azurite's modules
 * took to load, that was 1.1 s. In its place is a module whose every property throws, so telemetry can never be sent
 * from here (Azurite reads it only in its telemetry's `init`, and only when telemetry is on).
 * @param {string} azuritePackage the path of Azurite's package.json, so the module left out is the one it would load
 */
function leaveOutTelemetry(azuritePackage) {
  const azurite = createRequire(azuritePackage);
  checkStandIn('azurite', 'azurite-process.cjs', azurite.resolve);
  const filename = azurite.resolve('applicationinsights');
  const standIn = new Module(filename);
  standIn.filename = filename;
  standIn.loaded = true;
  standIn.exports = new Proxy(
    {},
    {
      get(_target, name) {
        // What a loader or a runtime asks of any module (an ES-module mark, a thenable, a symbol) is simply absent.
        if (typeof name !== 'string' || name === '__esModule' || name === 'then') return undefined;
        throw new Error(`Azurite read applicationinsights.${name} with --disableTelemetry; azurite-process.cjs left it out`);
      },
    },
  );
  require.cache[filename] = standIn;
}

module.exports = { installQueueIndex, leaveOutTelemetry };

// `node azurite-process.cjs <Azurite's main script> ...its arguments`: Azurite, patched, reading its arguments as if
// it had been started itself.
if (require.main === module) {
  const [main] = process.argv.splice(2, 1);
  if (!main) throw new Error("azurite-process: the first argument must be the path of Azurite's main script");
  const azuritePackage = require.resolve('azurite/package.json');
  installQueueIndex(azuritePackage);
  if (process.argv.includes('--disableTelemetry')) leaveOutTelemetry(azuritePackage);
  process.argv[1] = main;
  require(main);
}
