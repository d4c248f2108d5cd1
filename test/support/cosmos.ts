import type { Container } from '@azure/cosmos';
import { cosmosContainer, ensureContainer } from '../../adapters/cosmos/client';

/** The container the settings in `env` name (a test host's own), created: the local host makes none itself. */
export async function containerOf(env: Record<string, string | undefined>): Promise<Container> {
  const container = cosmosContainer({
    endpoint: env.COSMOS_ENDPOINT!,
    auth: { key: env.COSMOS_KEY! },
    database: env.COSMOS_DATABASE!,
    container: env.COSMOS_CONTAINER ?? 'activity',
  });
  await ensureContainer(container);
  return container;
}
