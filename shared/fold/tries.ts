/** For a call throttled past the SDK's retries or whose answer was lost; every write holds how far it got, so a retry writes the same. */
export const TRIES = 3;

/** A lost race may not pass `again`. */
export async function tried<T>(work: () => Promise<T>, again: (error: unknown) => boolean = () => true): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= TRIES || !again(error)) throw error;
    }
  }
}
