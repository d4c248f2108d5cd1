/**
 * Where a person's first visit came from: its source group (`linkedin`, `github`, `search`, `other`, `typed`), the
 * referrer's host and the campaign key (`source|medium|campaign`), and nothing else: no address, agent or time.
 */
export interface FirstTouch {
  source: string;
  referrer: string | null;
  campaign: string | null;
}

/** A person's first day counted among people and their first touch, as their record holds them. */
export interface First {
  day: string;
  touch: FirstTouch | null;
}
