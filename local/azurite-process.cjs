'use strict';
// Plain JavaScript: it runs inside Azurite's process, which a TypeScript loader would slow to start by over a second.

const { createRequire } = require('node:module');
const { installOnce } = require('./stand-ins.cjs');

// LokiJS rebuilds every index after any batch removal or update, and Azurite makes both on every queue call, so a call
// cost time in proportion to the messages held: at 2,000 queued, 6.4 ms of CPU a message, and a collection after 4,000
// took 58 s. Here small batches change one document at a time, expired messages and receives walk indexes of their
// own, and every call answers the same.
/** Up to this many, one at a time costs less than a rebuild, which sorts the whole index. */
const BATCH_ONE_BY_ONE = 64;

/**
 * Makes Azurite's queue calls and its collector cost the same whatever the number of messages queued.
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
    // LokiJS first maps a batch of documents or ids to positions by indexing every document; a query's results are positions.
    const removeBatch = collection.removeBatch;
    collection.removeBatch = function (batch) {
      if (batch.length > BATCH_ONE_BY_ONE) return removeBatch.call(this, batch);
      for (const doc of batch) this.remove(doc);
    };
    const removeBatchByPositions = collection.removeBatchByPositions;
    collection.removeBatchByPositions = function (positions) {
      if (positions.length > BATCH_ONE_BY_ONE) return removeBatchByPositions.call(this, positions);
      // The documents first, since each removal moves the positions after it.
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
      // These indices matched every message anyway, so the queries now scan the messages once.
      for (const unselective of ['accountName', 'queueName', 'visibleTime']) delete messages.binaryIndices[unselective];
      messages.ensureIndex('expirationTime');
      messages.ensureIndex('timeNextVisible');
    };
    // Updating each message as it changes keeps the index on timeNextVisible sorted, which a batch update would not.
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
    // LokiJS answers a query's first condition from its index, so the indexed one goes first.
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

/** Azurite's order: the earliest visible first, then the earliest sent. */
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

module.exports = { installQueueIndex };

// `node azurite-process.cjs <Azurite's main script> ...its arguments` runs Azurite patched, as if started itself.
if (require.main === module) {
  const [main] = process.argv.splice(2, 1);
  if (!main) throw new Error("azurite-process: the first argument must be the path of Azurite's main script");
  const azuritePackage = require.resolve('azurite/package.json');
  installQueueIndex(azuritePackage);
  process.argv[1] = main;
  require(main);
}
