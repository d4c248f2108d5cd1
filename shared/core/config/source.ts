import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import { utcDay } from '../identity/tokens';
import type { Versioned } from '../store/documents';
import type { ConfigDoc, ConfigDocs } from '../store/config';
import { seededConfig, settingsDiffering, type ConfigSeed } from './seed';

/** Every instance rereads the configuration at most this long after another changed it. */
export const CONFIG_MAX_AGE_MS = 60_000;

export interface ConfigSource {
  /** The configuration as read at most a minute ago; the first read of a process seeds it if nothing is kept. */
  current(): Promise<Versioned<ConfigDoc>>;
  /** After this process changed it, the next read is the store's. */
  forget(): void;
  /** What the settings say, for a read that must answer while the store cannot. */
  seed(): ConfigDoc;
}

export interface ConfigSourceDeps {
  docs: ConfigDocs;
  clock: Clock;
  logger: Logger;
  seed: ConfigSeed;
}

export function configSource(deps: ConfigSourceDeps): ConfigSource {
  let cached: { read: Promise<Versioned<ConfigDoc>>; at: number } | undefined;
  let compared = false;
  const seed = () => seededConfig(deps.seed, utcDay(deps.clock.now()));
  const read = async (): Promise<Versioned<ConfigDoc>> => {
    const kept = await deps.docs.read();
    if (kept !== null) {
      if (!compared) {
        compared = true;
        const differing = settingsDiffering(seed(), kept.doc);
        // The configuration is the one source after the first start: a setting changed later is only its default.
        if (differing.length > 0)
          deps.logger.warn('settings differ from the configuration kept; the configuration holds', { settings: differing.join(', ') });
      }
      return kept;
    }
    // Only the first instance's create lands; the others read what it made.
    await deps.docs.create(seed());
    compared = true;
    const made = await deps.docs.read();
    if (made === null) throw new Error('the configuration was created but cannot be read');
    return made;
  };
  return {
    current: () => {
      const now = deps.clock.now().getTime();
      if (cached === undefined || now - cached.at >= CONFIG_MAX_AGE_MS) {
        const fresh = { read: read(), at: now };
        cached = fresh;
        // A failed read is not kept, so the next call tries the store again.
        fresh.read.catch(() => {
          if (cached === fresh) cached = undefined;
        });
      }
      return cached.read;
    },
    forget: () => {
      cached = undefined;
    },
    seed,
  };
}
