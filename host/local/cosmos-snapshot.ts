import { z } from 'zod';
import type Account from '@vercel/cosmosdb-server/lib/account';
import type ItemObject from '@vercel/cosmosdb-server/lib/account/item-object';

// A snapshot holds every database, collection and document of the local Cosmos server's account exactly as the server
// holds them, its own fields (`_rid`, `_self`, `_etag`, `_ts`) included, and each level's resource-id counter, so a
// loaded account goes on as if it had never stopped: a replace with an `_etag` read before still matches, a fold reads
// the same `_ts` marks (it folds the writes after the mark it kept, so a changed `_ts` would refold or skip facts),
// and a new document gets a `_rid` no kept one has. User-defined functions are not kept: the app defines none.

const resource = z.looseObject({ id: z.string(), _rid: z.string(), _self: z.string() });
const document = resource.extend({ _etag: z.string(), _ts: z.number() });

const collectionSnapshot = z.object({ data: resource, rid_count: z.number().int().min(0), documents: z.array(document) });
const databaseSnapshot = z.object({ data: resource, rid_count: z.number().int().min(0), collections: z.array(collectionSnapshot) });

/** The file's shape, checked when it is read back: a file that is not one is refused, never half loaded. */
export const snapshotSchema = z.object({
  v: z.literal(1),
  saved_at: z.string(),
  rid_count: z.number().int().min(0),
  databases: z.array(databaseSnapshot),
});

/** Every database, collection and document of an account, in the order the server holds them. */
export type CosmosSnapshot = z.infer<typeof snapshotSchema>;

const dataOf = (item: { read(): ItemObject | undefined | null }): ItemObject => {
  const data = item.read();
  if (!data) throw new Error('the local Cosmos server holds an empty item');
  return data;
};

/**
 * The account as it is at this instant. It is read in one synchronous pass, so no write the server makes can land in
 * the middle of it: the snapshot is the account between two requests. The objects are the server's own; serialise
 * them before the next write.
 */
export function snapshotOf(account: Account, savedAt: Date): CosmosSnapshot {
  return {
    v: 1,
    saved_at: savedAt.toISOString(),
    rid_count: account.databases._ridCount,
    databases: [...account.databases._data.values()].map((database) => ({
      data: dataOf(database),
      rid_count: database.collections._ridCount,
      collections: [...database.collections._data.values()].map((collection) => ({
        data: dataOf(collection),
        rid_count: collection.documents._ridCount,
        documents: [...collection.documents._data.values()].map(
          (doc) => dataOf(doc) as CosmosSnapshot['databases'][number]['collections'][number]['documents'][number],
        ),
      })),
    })),
  };
}

/**
 * Puts a snapshot into a new, empty account, through the server's own `_set` (which indexes each item by id and
 * partition and makes each collection's partition key range) rather than `create` (which would give new `_rid`,
 * `_etag` and `_ts`).
 */
export function restoreSnapshot(account: Account, snapshot: CosmosSnapshot): void {
  if (account.databases._data.size > 0) throw new Error('a snapshot is loaded only into an empty account');
  for (const saved of snapshot.databases) {
    account.databases._set(saved.data);
    const database = account.databases._data.get(saved.data._rid)!;
    for (const kept of saved.collections) {
      database.collections._set(kept.data);
      const collection = database.collections._data.get(kept.data._rid)!;
      for (const doc of kept.documents) collection.documents._set(doc);
      collection.documents._ridCount = kept.rid_count;
    }
    database.collections._ridCount = saved.rid_count;
  }
  account.databases._ridCount = snapshot.rid_count;
}

/** How many documents a snapshot holds, for the line the stack prints. */
export const documentCount = (snapshot: CosmosSnapshot): number =>
  snapshot.databases.reduce((sum, database) => sum + database.collections.reduce((n, collection) => n + collection.documents.length, 0), 0);
