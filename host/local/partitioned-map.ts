/** A partition key's value as the local Cosmos server reads it from a document (a string, number, null, …). */
export type PartitionValue = unknown;

/**
 * A Map from `_rid` to document that also keeps, per partition key value, a Map of that partition's documents, in
 * the same relative order as the whole (so a query over one partition sees its documents in the order a full scan
 * would). Every write the server makes goes through `set` and `delete`, whichever handler makes it.
 */
export class PartitionedMap<V> extends Map<string, V> {
  readonly partitions = new Map<PartitionValue, Map<string, V>>();

  constructor(
    entries: Iterable<readonly [string, V]>,
    private readonly partitionOf: (value: V) => PartitionValue,
  ) {
    // Map's constructor would call `set` before this class's fields exist; filling here keeps the index in step.
    super();
    for (const [key, value] of entries) this.set(key, value);
  }

  override set(key: string, value: V): this {
    const previous = super.get(key);
    const partition = this.partitionOf(value);
    if (previous !== undefined && this.partitionOf(previous) !== partition) this.unindex(key, previous);
    super.set(key, value);
    let members = this.partitions.get(partition);
    if (!members) this.partitions.set(partition, (members = new Map<string, V>()));
    members.set(key, value);
    return this;
  }

  override delete(key: string): boolean {
    const previous = super.get(key);
    if (previous !== undefined) this.unindex(key, previous);
    return super.delete(key);
  }

  override clear(): void {
    super.clear();
    this.partitions.clear();
  }

  private unindex(key: string, value: V): void {
    const partition = this.partitionOf(value);
    const members = this.partitions.get(partition);
    members?.delete(key);
    if (members?.size === 0) this.partitions.delete(partition);
  }
}
