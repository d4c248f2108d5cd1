import { rm } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';

const projectRoot = join(__dirname, '..');

export interface LocalData {
  folder: string;
  azurite: string;
  cosmos: string;
  /** Relative to the project when it is inside it. */
  shown: string;
}

/** HEADCOUNT_DATA_DIR, else `.local-data/`, which git ignores; AZURITE_LOCATION still moves Azurite's part. */
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

/** `npm start -- --fresh` removes only the stack's own two parts, whatever else the folder holds. */
export async function forget(data: LocalData): Promise<void> {
  await rm(data.azurite, { recursive: true, force: true });
  await rm(data.cosmos, { force: true });
}
