/**
 * How many times a run tries what failed: a call the store throttled past the SDK's own retries (each of which waits
 * the store's retry-after), or one whose answer was lost. Everything the fold writes holds how far it got, so trying
 * again writes the same.
 */
export const TRIES = 3;

/** `work`, tried up to TRIES times while `again(error)` says the error may pass (a lost race may not). */
export async function tried<T>(work: () => Promise<T>, again: (error: unknown) => boolean = () => true): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= TRIES || !again(error)) throw error;
    }
  }
}
