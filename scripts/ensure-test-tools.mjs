// The test command's own install step: the browser tests drive Debian's Chromium, which npm cannot install.
// Installs it with apt-get when it is missing and this is a root shell on Debian; otherwise says what to run.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const chromium = '/usr/bin/chromium';
if (!existsSync(chromium)) {
  const root = process.getuid?.() === 0;
  if (!root || !existsSync('/usr/bin/apt-get')) {
    console.error(`${chromium} is missing: install Debian's chromium package (apt-get install chromium), then run the tests again.`);
    process.exit(1);
  }
  console.log('installing chromium from Debian packages for the browser tests…');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
}
