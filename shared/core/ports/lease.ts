/** A lease's answer: held (with the id to renew or release it by), taken by someone else, or no answer. */
export type LeaseAnswer = { held: true; leaseId: string } | { held: false; reason: string };

/**
 * An exclusive, expiring lease on one named lock, shared by every instance of the app: at most one holds it at a
 * time, and one that stops renewing loses it when it runs out.
 */
export interface Lease {
  acquire(): Promise<LeaseAnswer>;
  renew(leaseId: string): Promise<LeaseAnswer>;
  release(leaseId: string): Promise<void>;
}
