/**
 * Work on one key at a time, in the order it was asked for, in this process; work on other keys runs at once. A turn
 * that fails does not stop the next one. Nothing is held once a key's last turn is over.
 */
export class InTurn {
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
