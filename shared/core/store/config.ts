import type { Conditional } from './documents';

/** Kept with the first site's documents, since it names every site. */
export const CONFIG_PK = 'config';
export const CONFIG_ID = 'config';

export interface ConfigSite {
  name: string;
  origins: string[];
  /** An IANA name; absent is the deployment's zone. */
  time_zone?: string;
}

/** An event, or pages where `*` stands for any run of characters. */
export interface ConfigGoal {
  name: string;
  event?: string;
  pages?: string[];
  /** Absent means every site and all of them. */
  site?: string;
  /** The day the goal was added, from which its people and first touch count. */
  added: string;
  /** From the settings on first start: counted as the days were folded, so never counted back. */
  seeded?: true;
}

/** A step is reached by any of its pages or events. */
export interface ConfigStep {
  name: string;
  pages: string[];
  events: string[];
}

export interface ConfigFunnel {
  name: string;
  steps: ConfigStep[];
  added: string;
}

/** A name for a set of `dimension:value` filters, read as `filter=segment:<name>`. */
export interface ConfigSegment {
  name: string;
  filters: string[];
}

export interface ConfigAnnotation {
  day: string;
  note: string;
}

/** A site's mail: who gets it, which reports, and the alerts' thresholds. */
export interface ConfigEmail {
  site: string;
  recipients: string[];
  reports: Array<'weekly' | 'monthly'>;
  spike_people?: number;
  drop_percent?: number;
}

/** The deployment's one configuration: seeded from the settings on first start, then edited in the dashboard. */
export interface ConfigDoc {
  id: typeof CONFIG_ID;
  pk: typeof CONFIG_PK;
  kind: 'config';
  sites: ConfigSite[];
  goals: ConfigGoal[];
  funnels: ConfigFunnel[];
  segments: ConfigSegment[];
  annotations: ConfigAnnotation[];
  /** Absent in a configuration kept before mail was. */
  email?: ConfigEmail[];
}

export type ConfigDocs = Conditional<ConfigDoc, []>;
