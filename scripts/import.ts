import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { hostingNetworks } from '../adapters/files/networks';
import type { HostingNetworks } from '../shared/core/identity/network-table';
import { FORMAT_NAMES, type FormatName } from './import/detect';
import { runImport } from './import/run';
import { ImportRefused } from './import/send';
import { resolveTarget, type Target } from './import/target';

const USAGE = `npm run import -- [options] FILE...

Imports a site's history from its web server's access logs (or Plausible's export) into headcount: the app counts
each person once from the first logged day. A FILE may be gzipped, or - for standard input.

  --format NAME       auto (the default: each file's format from its first lines), combined, common, vhost_combined,
                      vhost_common, caddy, w3c (IIS, Azure App Service) or plausible (the export's zip or imported_*.csv)
  --log-format TEXT   the format in nginx's log_format notation, for any other log
  --until DAY         the last day to import (yyyy-MM-dd); by default the day before the first day counted live
  --dry-run           read and classify everything, print the summary, send nothing
  --url URL           the app (default: the azd environment's SERVICE_API_URI, else the local host npm start runs)
  --port N            the local host's port (default: as npm start reads it: PORT, Host.LocalHttpPort, 7071)
  --key KEY           the ingest key (default: HEADCOUNT_INGEST_KEY of the azd environment, else local.settings.json)
  --store NAME        the store the lines are counted under (default site)
  --site NAME         the site of SITES the lines are counted for (default the first declared)
  --help`;

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'auto' },
      'log-format': { type: 'string' },
      until: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      url: { type: 'string' },
      port: { type: 'string' },
      key: { type: 'string' },
      store: { type: 'string' },
      site: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || positionals.length === 0) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const format = values.format;
  if (format !== 'auto' && !(FORMAT_NAMES as readonly string[]).includes(format)) {
    console.error(`--format must be auto or one of ${FORMAT_NAMES.join(', ')}`);
    return 2;
  }
  if (values.until !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.until)) {
    console.error('--until must be a day, yyyy-MM-dd');
    return 2;
  }
  let resolved: ReturnType<typeof resolveTarget>;
  try {
    resolved = resolveTarget({ url: values.url, key: values.key, port: values.port }, join(__dirname, '..'));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  let target: Target | null = null;
  if ('missing' in resolved) {
    if (!values['dry-run']) {
      console.error(resolved.missing);
      return 2;
    }
  } else target = values.site === undefined ? resolved : { ...resolved, site: values.site };
  if (target !== null && !values['dry-run']) console.error(`sending to ${target.url} (from ${target.from})`);
  let networks: HostingNetworks | null = null;
  try {
    networks = hostingNetworks();
  } catch {
    console.error('the hosting networks table is missing (npm run networks): the estimate counts data centres as people');
  }
  try {
    await runImport(
      {
        inputs: positionals,
        format: format as 'auto' | FormatName,
        logFormat: values['log-format'],
        dryRun: values['dry-run'],
        until: values.until,
        target,
        store: values.store,
        networks,
      },
      {
        out: (line) => console.log(line),
        progress: { tty: process.stderr.isTTY, write: (text) => process.stderr.write(text) },
      },
    );
    return 0;
  } catch (error) {
    console.error(error instanceof ImportRefused || error instanceof Error ? error.message : String(error));
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
