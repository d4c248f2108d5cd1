import { z } from 'zod';
import type Account from '@vercel/cosmosdb-server/lib/account';
import type ItemObject from '@vercel/cosmosdb-server/lib/account/item-object';

// The server's own `_rid`, `_etag` and `_ts` are kept, so a loaded account goes on as if it never stopped: the fold
// reads the same watermarks and an old etag still matches. User-defined functions are not kept, since the app has none.

const resource = z.looseObject({ id: z.string(), _rid: z.string(), _self: z.string() });
const document = resource.extend({ _etag: z.string(), _ts: z.number() });

const collectionSnapshot = z.object({ data: resource, rid_count: z.number().int().min(0), documents: z.array(document) });
const databaseSnapshot = z.object({ data: resource, rid_count: z.number().int().min(0), collections: z.array(collectionSnapshot) });

/** A file that is not one is refused, never half loaded. */
export const snapshotSchema = z.object({
  v: z.literal(1),
  saved_at: z.string(),
  rid_count: z.number().int().min(0),
  databases: z.array(databaseSnapshot),
});

export type CosmosSnapshot = z.infer<typeof snapshotSchema>;

const dataOf = (item: { read(): ItemObject | undefined | null }): ItemObject => {
  const data = item.read();
  if (!data) throw new Error('the local Cosmos server holds an empty item');
  return data;
};

/** One synchronous pass, so the snapshot falls between two requests; serialise it before the next write. */
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

/** Through the server's own `_set`, since `create` would give a new `_rid`, `_etag` and `_ts`. */
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

export const documentCount = (snapshot: CosmosSnapshot): number =>
  snapshot.databases.reduce((sum, database) => sum + database.collections.reduce((n, collection) => n + collection.documents.length, 0), 0);
