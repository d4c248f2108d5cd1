/**
 * One lane per document in this process: invocations that want the same document take turns rather than racing, so
 * the conditional writes of one process do not fail each other (a 412 costs a read and a write again). Other
 * processes still race, and the conditional writes settle that.
 */
export class Lanes {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const mine = before.then(work, work);
    const tail = mine.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return mine;
  }
}
