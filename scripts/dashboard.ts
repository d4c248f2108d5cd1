// npm run dashboard: writes the dashboard's made files (scripts/dashboard-files.ts); `-- --check` only says whether
// they are what the code makes (the test does the same).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { madeFiles } from './dashboard-files';

const root = join(__dirname, '..');
const stale = madeFiles(root).filter(({ file, text }) => {
  let kept = '';
  try {
    kept = readFileSync(join(root, file), 'utf8');
  } catch {
    // Not made yet.
  }
  return kept !== text;
});
if (process.argv.includes('--check')) {
  console.log(
    stale.length === 0
      ? "the dashboard's made files are what the code makes"
      : `${stale.map((f) => f.file).join(', ')} differ: run npm run dashboard`,
  );
  process.exit(stale.length === 0 ? 0 : 1);
}
for (const { file, text } of stale) writeFileSync(join(root, file), text);
console.log(stale.length === 0 ? 'nothing to write' : `written: ${stale.map((f) => f.file).join(', ')}`);
