/** `leaseId` renews or releases it. */
export type LeaseAnswer = { held: true; leaseId: string } | { held: false; reason: string };

/** One holder at a time across every instance; a holder that stops renewing loses it. */
export interface Lease {
  acquire(): Promise<LeaseAnswer>;
  renew(leaseId: string): Promise<LeaseAnswer>;
  release(leaseId: string): Promise<void>;
}
