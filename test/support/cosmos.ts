import type { Container } from '@azure/cosmos';
import { cosmosContainer, ensureContainer } from '../../adapters/cosmos/client';
import { unpackFact } from '../../adapters/cosmos/packed-facts';

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

/** Every document in the container, each fact's packed parts unpacked so a search reads what they hold; and how many facts were packed. */
export async function storedDocuments(container: Container) {
  // Untyped, as each test reads the documents' fields it searches.
  const { resources } = await container.items.query('SELECT * FROM c').fetchAll();
  const facts = resources.filter((doc: { kind?: string }) => doc.kind === 'fact');
  return {
    documents: resources.map((doc) => unpackFact(doc)),
    facts: facts.length,
    packed: facts.filter((doc: object) => 'packed' in doc).length,
  };
}
