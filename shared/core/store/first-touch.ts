/** Source group, referrer host and campaign key only: no address, agent or time. */
export interface FirstTouch {
  source: string;
  referrer: string | null;
  campaign: string | null;
}

export interface First {
  day: string;
  touch: FirstTouch | null;
}
