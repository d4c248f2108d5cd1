/** Runs work one key at a time, in order, in this process; a failed turn does not stop the next. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  run(key: string, work: () => Promise<void>): Promise<void> {
    const turn = (this.tails.get(key) ?? Promise.resolve()).then(work);
    const tail = turn.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return turn;
  }
}
