import { packagedCountries } from '../../adapters/files/countries';

/**
 * One country lookup for every test host and rig of a worker, as a process has one: its table takes about a second to
 * build, and the files of a worker share its modules.
 */
export const countries = packagedCountries();
