import { gzipSync } from 'node:zlib';
import { readAsset } from '../adapters/files/assets';
import { ASSETS, DASHBOARD } from '../shared/contract/assets';

/** The snippet goes on every page of a site: it must stay under this gzipped. */
const SNIPPET_BUDGET = 2048;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

/** `npm run bench pages`: each page file raw and gzipped (level 9, as served), and the snippet against its budget. */
export async function run(): Promise<void> {
  const files = [...Object.entries(ASSETS), ['admin.html', DASHBOARD] as const];
  console.log('file                     raw         gzipped');
  for (const [name, source] of files) {
    const asset = readAsset(source);
    console.log(
      `${name.padEnd(24)} ${String(asset.body.length).padStart(7)} B  ${String(asset.gzipped.length).padStart(7)} B  (${kb(asset.gzipped.length)})`,
    );
  }
  const snippet = readAsset(ASSETS['headcount.js']!);
  const widget = readAsset(ASSETS['headcount-pulse.js']!);
  const defaultGzip = gzipSync(snippet.body).length;
  console.log(
    `\nsnippet headcount.js: ${snippet.gzipped.length} B gzipped (${defaultGzip} B at zlib's default level), budget ${SNIPPET_BUDGET} B: ${snippet.gzipped.length <= SNIPPET_BUDGET ? 'within' : 'OVER'}`,
  );
  console.log(`widget headcount-pulse.js: ${widget.gzipped.length} B gzipped, ${widget.body.length} B raw`);
}
