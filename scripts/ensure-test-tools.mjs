// What the test suite drives besides Node, from Debian's packages (never a download):
// - Chromium, for the browser tests (through playwright-core);
// - a real WordPress site for test/wordpress.browser.test.ts: Debian's wordpress package and its default theme,
//   PHP's command-line server and MariaDB, with a database account for the tests (test/wordpress.ts).
// Finds each; as root on Debian installs what is missing and starts MariaDB; otherwise stops with the exact
// commands to run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const canInstall = isRoot && fs.existsSync('/usr/bin/apt-get');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
let updated = false;
const install = (packages) => {
  if (!updated) execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  updated = true;
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env });
};
const problems = [];

// Chromium.
const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const chromium = () => CANDIDATES.find((p) => p && fs.existsSync(p));
if (!chromium() && canInstall) {
  console.log('Chromium not found: installing the Debian package (apt-get install -y chromium)…');
  install(['chromium']);
}
if (chromium()) console.log(`chromium: ${chromium()}`);
else problems.push('Chromium is required for the browser tests: sudo apt-get update && sudo apt-get install -y chromium (or set CHROMIUM_PATH)');

// WordPress, PHP and MariaDB.
const WORDPRESS = {
  '/usr/bin/php': 'php-cli',
  '/usr/share/wordpress/wp-settings.php': 'wordpress',
  '/usr/share/wordpress/wp-content/themes/twentytwentythree': 'wordpress-theme-twentytwentythree',
  '/usr/sbin/mariadbd': 'mariadb-server',
};
const phpHasMysqli = () => {
  try {
    return execFileSync('php', ['-r', 'echo extension_loaded("mysqli") ? "yes" : "no";'], { encoding: 'utf8' }) === 'yes';
  } catch {
    return false;
  }
};
const missing = () => [
  ...Object.entries(WORDPRESS).filter(([file]) => !fs.existsSync(file)).map(([, pkg]) => pkg),
  // PHP's MySQL driver is a module, not a file of its own to look for.
  ...(fs.existsSync('/usr/bin/php') && phpHasMysqli() ? [] : ['php-mysql']),
];
let needed = missing();
if (needed.length > 0 && canInstall) {
  console.log(`WordPress test site: installing ${needed.join(' ')}…`);
  install(needed);
  needed = missing();
}
const mariadbUp = () => {
  try {
    execFileSync('mariadb-admin', ['--protocol=socket', 'ping'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
if (needed.length > 0) {
  problems.push(`The WordPress test site needs Debian packages: sudo apt-get install -y --no-install-recommends ${needed.join(' ')}`);
} else if (isRoot) {
  if (!mariadbUp()) {
    console.log('MariaDB is not running: starting it…');
    fs.mkdirSync('/run/mysqld', { recursive: true });
    execFileSync('chown', ['mysql:mysql', '/run/mysqld']);
    execFileSync('start-stop-daemon', ['--start', '--oknodo', '--background', '--exec', '/usr/sbin/mariadbd']);
    for (let i = 0; i < 60 && !mariadbUp(); i++) execFileSync('sleep', ['0.5']);
  }
  if (mariadbUp()) {
    // The tests' own account (test/wordpress.ts), over TCP with a password, whatever root's authentication is;
    // it may create and drop only the tests' databases.
    execFileSync('mariadb', ['--protocol=socket', '-e', [
      "CREATE USER IF NOT EXISTS 'placet_wp'@'127.0.0.1' IDENTIFIED BY 'placet_wp'",
      "GRANT ALL PRIVILEGES ON `placet\\_wp\\_%`.* TO 'placet_wp'@'127.0.0.1'",
    ].join(';')]);
    console.log('wordpress: /usr/share/wordpress, MariaDB running');
  } else problems.push('MariaDB did not start: start it (e.g. start-stop-daemon --start --background --exec /usr/sbin/mariadbd)');
} else if (!mariadbUp()) {
  problems.push('MariaDB must be running for the WordPress test site, with an account placet_wp@127.0.0.1 (password placet_wp) that may create databases named placet_wp_*; run npm test as root once to set it up, or see test/wordpress.ts');
}

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  process.exit(1);
}
