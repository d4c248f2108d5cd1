import { rm } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';

const projectRoot = join(__dirname, '..', '..');

/** Where the local stack keeps its data between starts: Azurite's files and the Cosmos server's documents. */
export interface LocalData {
  folder: string;
  azurite: string;
  cosmos: string;
  /** The folder as a person would type it: relative to the project when it is inside it. */
  shown: string;
}

/**
 * The stack's data folder: HEADCOUNT_DATA_DIR (relative to the current folder), else `.local-data/` in the project
 * (git ignores it). AZURITE_LOCATION still moves Azurite's part elsewhere.
 */
export function localData(values: Record<string, string | undefined>): LocalData {
  const named = values.HEADCOUNT_DATA_DIR;
  const folder = named ? (isAbsolute(named) ? named : join(process.cwd(), named)) : join(projectRoot, '.local-data');
  const inside = relative(projectRoot, folder);
  return {
    folder,
    azurite: values.AZURITE_LOCATION ?? join(folder, 'azurite'),
    cosmos: join(folder, 'cosmos.json'),
    shown: inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : folder,
  };
}

/** Forgets what the stack kept (`npm start -- --fresh`): only its own two parts, whatever else the folder holds. */
export async function forget(data: LocalData): Promise<void> {
  await rm(data.azurite, { recursive: true, force: true });
  await rm(data.cosmos, { force: true });
}
