import { PartitionIndex, type Fields } from './partition-index';

export type PartitionValue = unknown;

/** Each partition's documents keep the whole's order, so a query over one sees them as a full scan would. */
export class PartitionedMap<V> extends Map<string, V> {
  readonly partitions = new Map<PartitionValue, Map<string, V>>();
  private readonly indexes = new Map<PartitionValue, PartitionIndex<V>>();

  constructor(
    entries: Iterable<readonly [string, V]>,
    private readonly partitionOf: (value: V) => PartitionValue,
    private readonly fieldsOf: (value: V) => Fields,
  ) {
    // Map's constructor would call `set` before this class's fields exist; filling here keeps the index in step.
    super();
    for (const [key, value] of entries) this.set(key, value);
  }

  /** Built on first use and kept in step with every write after. */
  indexOf(partition: PartitionValue): PartitionIndex<V> | undefined {
    const members = this.partitions.get(partition);
    if (!members) return undefined;
    let index = this.indexes.get(partition);
    if (!index) this.indexes.set(partition, (index = new PartitionIndex(members, this.fieldsOf)));
    return index;
  }

  override set(key: string, value: V): this {
    let previous = super.get(key);
    const partition = this.partitionOf(value);
    if (previous !== undefined && this.partitionOf(previous) !== partition) {
      this.unindex(key, previous);
      previous = undefined;
    }
    super.set(key, value);
    let members = this.partitions.get(partition);
    if (!members) this.partitions.set(partition, (members = new Map<string, V>()));
    members.set(key, value);
    this.indexes.get(partition)?.added(key, value, previous);
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
    this.indexes.clear();
  }

  private unindex(key: string, value: V): void {
    const partition = this.partitionOf(value);
    const members = this.partitions.get(partition);
    members?.delete(key);
    this.indexes.get(partition)?.removed(key, value);
    if (members?.size === 0) {
      this.partitions.delete(partition);
      this.indexes.delete(partition);
    }
  }
}
