// npm run openapi: writes docs/openapi.json from the routes and schemas of shared/contract; `-- --check` only says
// whether the file is what they make (the test does the same).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiText } from '../shared/contract/openapi';

const file = join(__dirname, '..', 'docs', 'openapi.json');
const made = openApiText();
if (process.argv.includes('--check')) {
  const same = readFileSync(file, 'utf8') === made;
  console.log(same ? 'docs/openapi.json is what shared/contract makes' : 'docs/openapi.json differs: run npm run openapi');
  process.exit(same ? 0 : 1);
}
writeFileSync(file, made);
console.log(`docs/openapi.json written (${made.length} bytes)`);
