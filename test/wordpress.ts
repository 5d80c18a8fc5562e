import { type ChildProcess, execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './browser.js';

/**
 * A real WordPress site for the browser tests: Debian's `wordpress` package (WordPress 6.1), copied to a temporary
 * folder with a configuration of its own, installed into a fresh MariaDB database, served by PHP's built-in server
 * on 127.0.0.1. Its theme is Twenty Twenty-Three (Debian's `wordpress-theme-twentytwentythree`), its plugins the
 * must-use plugin test/fixtures/wordpress/placet-test-site.php, which prints what common plugins print. Nothing is
 * installed here: `npm test` (scripts/ensure-test-tools.mjs) and `.ci/run` install the packages and start MariaDB.
 *
 * MariaDB is reached on 127.0.0.1:3306 as `placet_wp` (password `placet_wp`), which scripts/ensure-test-tools.mjs
 * creates and which may create and drop only databases named `placet_wp_*`; `WORDPRESS_TEST_DB_HOST`, `…_USER` and
 * `…_PASSWORD` name another server or account.
 */

const WORDPRESS = '/usr/share/wordpress';
const THEME = `${WORDPRESS}/wp-content/themes/twentytwentythree`;
const run = promisify(execFile);

/** What the must-use plugin prints (placet-test.json, read on every request). */
export interface SiteSettings {
  /** The consent snippet. */
  snippet?: string;
  /** Its wp_head priority: 10 as the established product's guide has it (after the enqueued scripts), 1 first. */
  snippetPriority?: number;
  /** Site Kit by Google's Google tag: from googletagmanager.com, or through its Google tag gateway proxy. */
  siteKit?: 'direct' | 'gateway';
  /** Site Kit's Ads module too: a Google Ads conversion tag (`AW-…`) in the same Google tag. */
  siteKitAds?: boolean;
  /** Jetpack's site stats (WordPress.com). */
  jetpackStats?: boolean;
  /** Jetpack's WooCommerce Analytics (WordPress.com's store analytics), with a product view queued. */
  wooAnalytics?: boolean;
  /** Meta pixel for WordPress. */
  metaPixel?: boolean;
  /** A theme's Google Maps JavaScript API, deferred. */
  mapsApi?: boolean;
}

export interface WordPress {
  /** http://127.0.0.1:port */
  url: string;
  /** The post with the YouTube embed block and the Google Maps iframe. */
  postUrl: string;
  configure(settings: SiteSettings): void;
  close(): Promise<void>;
}

/** Why WordPress cannot start here, with the command that fixes it; undefined when it can. */
export function wordpressMissing(): string | undefined {
  const missing = [
    ['/usr/bin/php', 'php-cli'],
    [`${WORDPRESS}/wp-settings.php`, 'wordpress'],
    [THEME, 'wordpress-theme-twentytwentythree'],
    ['/usr/bin/mysql', 'mariadb-client'],
  ].filter(([file]) => !fs.existsSync(file!)).map(([, pkg]) => pkg);
  return missing.length > 0 ? `apt-get install -y --no-install-recommends ${missing.join(' ')} php-mysql (npm test installs them as root)` : undefined;
}

const db = {
  host: process.env.WORDPRESS_TEST_DB_HOST ?? '127.0.0.1',
  user: process.env.WORDPRESS_TEST_DB_USER ?? 'placet_wp',
  password: process.env.WORDPRESS_TEST_DB_PASSWORD ?? 'placet_wp',
};
const mysql = (sql: string) => run('mysql', [`-h${db.host}`, `-u${db.user}`, ...(db.password ? [`-p${db.password}`] : []), '-e', sql]);

/** PHP string literal. */
const php = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const POST = `<!-- wp:paragraph -->
<p>Our new video and where to find us.</p>
<!-- /wp:paragraph -->

<!-- wp:embed {"url":"https://www.youtube.com/watch?v=aqz-KE-bpKQ","type":"video","providerNameSlug":"youtube","responsive":true,"className":"wp-embed-aspect-16-9 wp-has-aspect-ratio"} -->
<figure class="wp-block-embed is-type-video is-provider-youtube wp-block-embed-youtube wp-embed-aspect-16-9 wp-has-aspect-ratio"><div class="wp-block-embed__wrapper">
https://www.youtube.com/watch?v=aqz-KE-bpKQ
</div></figure>
<!-- /wp:embed -->

<!-- wp:html -->
<iframe src="https://www.google.com/maps/embed?pb=!1m18!1m12!1m3!1d2428.4!2d13.37!3d52.51" width="600" height="450" style="border:0;" allowfullscreen="" loading="lazy" referrerpolicy="no-referrer-when-downgrade"></iframe>
<!-- /wp:html -->`;

export async function startWordPress(): Promise<WordPress> {
  const why = wordpressMissing();
  if (why) throw new Error(`WordPress for the tests is missing: ${why}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-wp-'));
  const root = path.join(dir, 'wp');
  // A copy, not symbolic links: PHP resolves links, and WordPress finds its configuration next to its own files.
  fs.cpSync(WORDPRESS, root, { recursive: true, verbatimSymlinks: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const database = `placet_wp_${crypto.randomBytes(6).toString('hex')}`;
  await mysql(`CREATE DATABASE ${database} CHARACTER SET utf8mb4`);
  let server: ChildProcess | undefined;
  const close = async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      // The whole process group: PHP's workers are processes of their own and outlive a killed parent.
      process.kill(-server.pid!, 'SIGTERM');
      await exited;
    }
    await mysql(`DROP DATABASE IF EXISTS ${database}`).catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    fs.writeFileSync(path.join(root, 'wp-config.php'), `<?php
define('DB_NAME', ${php(database)});
define('DB_USER', ${php(db.user)});
define('DB_PASSWORD', ${php(db.password)});
define('DB_HOST', ${php(db.host)});
define('DB_CHARSET', 'utf8mb4');
define('WP_HOME', ${php(url)});
define('WP_SITEURL', ${php(url)});
define('AUTOMATIC_UPDATER_DISABLED', true);
define('DISABLE_WP_CRON', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
$table_prefix = 'wp_';
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`);
    const content = path.join(root, 'wp-content');
    fs.mkdirSync(path.join(content, 'mu-plugins'), { recursive: true });
    fs.copyFileSync(new URL('./fixtures/wordpress/placet-test-site.php', import.meta.url), path.join(content, 'mu-plugins', 'placet-test-site.php'));
    // Site Kit's Google tag gateway proxy (gtg/measurement.php) serves Google's gtag.js from the site itself; its
    // stand-in counts its runs, as the vendor stand-ins in the tests do, and lists the tags it was asked for.
    const gtg = path.join(content, 'plugins', 'google-site-kit', 'gtg');
    fs.mkdirSync(gtg, { recursive: true });
    fs.writeFileSync(path.join(gtg, 'measurement.php'), `<?php
header('Content-Type: text/javascript');
$tag = preg_replace('/[^A-Za-z0-9-]/', '', $_GET['id'] ?? '');
echo 'window.__ran_gtg = (window.__ran_gtg || 0) + 1; (window.__gtg_tags = window.__gtg_tags || []).push("' . $tag . '");';
`);
    fs.writeFileSync(path.join(dir, 'install.php'), `<?php
define('WP_INSTALLING', true);
$_SERVER['HTTP_HOST'] = ${php(`127.0.0.1:${port}`)};
require ${php(path.join(root, 'wp-load.php'))};
// No mail server here: the installer's "your new site" mail is not sent.
function wp_new_blog_notification() {}
require ABSPATH . 'wp-admin/includes/upgrade.php';
wp_install('Placet test shop', 'admin', 'admin@example.com', true, '', ${php(crypto.randomBytes(12).toString('hex'))});
// As an editor with unfiltered_html saves it: the Custom HTML block keeps its iframe.
kses_remove_filters();
echo wp_insert_post(['post_title' => 'Video and map', 'post_status' => 'publish', 'post_content' => ${php(POST)}], true);
`);
    const { stdout } = await run('php', [path.join(dir, 'install.php')], { cwd: dir });
    const postId = Number(/(\d+)\s*$/.exec(stdout)?.[1]);
    if (!postId) throw new Error(`WordPress install failed: ${stdout}`);
    server = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', root], {
      cwd: root,
      // Several workers, as a real site answers the page and its assets in parallel.
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
      stdio: 'ignore',
      // A process group of its own, so that close() ends the workers with it.
      detached: true,
    });
    for (let i = 0; ; i++) {
      const ok = await fetch(`${url}/?p=${postId}`).then((r) => r.ok, () => false);
      if (ok) break;
      if (i > 100) throw new Error('WordPress did not answer on its port');
      await new Promise((r) => setTimeout(r, 100));
    }
    return {
      url,
      postUrl: `${url}/?p=${postId}`,
      configure: (settings) => fs.writeFileSync(path.join(content, 'placet-test.json'), JSON.stringify(settings)),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
