// Browser tests drive the system Chromium through playwright-core (never a downloaded browser).
// Finds it; as root on Debian installs it; otherwise stops with the exact command to run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const found = () => CANDIDATES.find((p) => p && fs.existsSync(p));

if (!found()) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && fs.existsSync('/usr/bin/apt-get')) {
    console.log('Chromium not found: installing the Debian package (apt-get install -y chromium)…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  }
  if (!found()) {
    console.error('Chromium is required for the browser tests. Install it with:\n  sudo apt-get update && sudo apt-get install -y chromium\nor set CHROMIUM_PATH to a Chromium executable.');
    process.exit(1);
  }
}
console.log(`chromium: ${found()}`);
