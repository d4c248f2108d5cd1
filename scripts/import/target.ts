import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { localPort, localSettingsFile, readLocalSettings } from '../../local/local-settings';

/** Where the import sends, and with which key, and where that was read from. */
export interface Target {
  url: string;
  key: string;
  from: string;
  /** The site (SITES) the lines are counted under; the first declared site when not given. */
  site?: string;
}

/** `KEY="value"` lines, as `azd env get-values` prints them and `.azure/<env>/.env` holds them. */
export function envValues(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    let value = match[2]!.trim();
    if (/^".*"$/.test(value)) value = value.slice(1, -1).replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    else if (/^'.*'$/.test(value)) value = value.slice(1, -1);
    values[match[1]!] = value;
  }
  return values;
}

/** The azd environment's values when one is set for this project (`.azure/config.json`'s default, or AZURE_ENV_NAME). */
function azdValues(root: string): { values: Record<string, string>; name: string } | null {
  const config = join(root, '.azure', 'config.json');
  let name = process.env.AZURE_ENV_NAME;
  if (!name && existsSync(config)) {
    try {
      name = (JSON.parse(readFileSync(config, 'utf8')) as { defaultEnvironment?: string }).defaultEnvironment;
    } catch {
      name = undefined;
    }
  }
  if (!name) return null;
  try {
    const printed = execFileSync('azd', ['env', 'get-values', '--environment', name], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return { values: envValues(printed), name };
  } catch {
    const file = join(root, '.azure', name, '.env');
    return existsSync(file) ? { values: envValues(readFileSync(file, 'utf8')), name } : null;
  }
}

/** The local host `npm start` runs: its port read as `npm start` reads it, and the ingest key of the same settings. */
function localTarget(
  root: string,
  port: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): { url: string; key: string | undefined; file: string } | null {
  const file = localSettingsFile(env, root);
  if (!existsSync(file)) return null;
  const settings = readLocalSettings(file);
  const values = { ...settings.values, ...env };
  const read = localPort(port === undefined ? [] : ['--port', port], values, settings);
  return { url: `http://127.0.0.1:${read.port}`, key: values.INGEST_KEY, file: `${basename(file)}, port from ${read.from}` };
}

/**
 * Where to send: `--url` and `--key` when given; else the azd environment set for this project (`SERVICE_API_URI` and
 * `HEADCOUNT_INGEST_KEY`, from `azd env get-values`); else the local host `npm start` runs, on the port it reads
 * (`--port`, PORT, Host.LocalHttpPort, 7071: local-settings.ts localPort) with the key of its settings. The hash key
 * never leaves the app: the command sends lines, and the app hashes them.
 */
export function resolveTarget(
  given: { url?: string; key?: string; port?: string },
  root: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Target | { missing: string } {
  if (given.url && given.key) return { url: given.url, key: given.key, from: '--url and --key' };
  const azd = azdValues(root);
  if (azd && given.port === undefined) {
    const url = given.url ?? azd.values.SERVICE_API_URI;
    const key = given.key ?? azd.values.HEADCOUNT_INGEST_KEY;
    if (url && key) return { url, key, from: `the azd environment ${azd.name}` };
  }
  const local = localTarget(root, given.port, env);
  const url = given.url ?? local?.url;
  const key = given.key ?? local?.key;
  if (url && key) return { url, key, from: given.url || given.key ? `the arguments and ${local?.file}` : (local?.file ?? '') };
  return { missing: 'no app to send to: give --url and --key, or set an azd environment (azd env select)' };
}
