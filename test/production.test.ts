import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The production install: `npm run build` (also run by npm install's `prepare`) transpiles with esbuild, a
 * runtime dependency, so `npm ci --omit=dev` can build; the server and the admin CLIs then run from dist/
 * with plain node: no tsx, no tsc, and no devDependency imported.
 */
const root = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-prod-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * PATH without node_modules/.bin, so nothing can fall back to tsx or tsc; the Node that runs the tests comes
 * first, so `node` in the entrypoint script is that one (CI runs these tests on Node 20 and on Node 22, whose
 * binary lives under a node_modules folder of its own).
 */
const env = {
  PATH: [path.dirname(process.execPath), ...(process.env.PATH ?? '').split(':').filter((p) => !/node_modules[\\/]\.bin$/.test(p))].join(':'),
  DATABASE_URL: `sqlite:${path.join(dir, 'placet.sqlite')}`,
  HOST: '127.0.0.1',
  PORT: String(20000 + Math.floor(Math.random() * 20000)),
  LOG_LEVEL: 'warn',
};

function jsFiles(folder: string): string[] {
  return fs.readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.js'))
    .map((f) => path.join(folder, f));
}

describe('production build', () => {
  it('builds dist/ with the build script alone', () => {
    const res = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, env, encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    expect(fs.existsSync(path.join(root, 'dist/src/server.js'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'dist/src/cli/migrate.js'))).toBe(true);
    expect(jsFiles(path.join(root, 'dist')).some((f) => f.endsWith('.test.js'))).toBe(false);
    // Up to date: --if-stale leaves the build alone.
    const stamp = fs.readFileSync(path.join(root, 'dist/.build-stamp'), 'utf8');
    const again = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root, env, encoding: 'utf8' });
    expect(again.status).toBe(0);
    expect(fs.readFileSync(path.join(root, 'dist/.build-stamp'), 'utf8')).toBe(stamp);
  });

  it('imports only runtime dependencies and Node built-ins', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const allowed = new Set([...Object.keys(pkg.dependencies), ...builtinModules]);
    const bare = new Set<string>();
    for (const file of jsFiles(path.join(root, 'dist'))) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/(?:^|[\s;])(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm)) {
        const spec = m[1] ?? m[2]!;
        if (spec.startsWith('.') || spec.startsWith('node:')) continue;
        bare.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
    expect(bare.size).toBeGreaterThan(5);
    expect([...bare].filter((name) => !allowed.has(name))).toEqual([]);
  });

  it('starts from dist with plain node, and the admin CLIs run from dist too', async () => {
    const child = spawn(process.execPath, ['dist/src/server.js'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    child.stdout?.on('data', (d) => (out += String(d)));
    child.stderr?.on('data', (d) => (out += String(d)));
    let ready = false;
    for (let i = 0; i < 300 && !ready; i++) {
      ready = await fetch(`http://127.0.0.1:${env.PORT}/readyz`).then((r) => r.ok, () => false);
      if (!ready) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ready, out).toBe(true);
    const key = /^(plh_[0-9a-f]{64})$/m.exec(out)?.[1];
    expect((await fetch(`http://127.0.0.1:${env.PORT}/hosting/api/client?apiKey=${key}`)).status).toBe(200);

    const migrate = spawnSync(process.execPath, ['dist/src/cli/migrate.js'], { cwd: root, env, encoding: 'utf8' });
    expect(migrate.status, migrate.stderr).toBe(0);
    expect(migrate.stdout).toContain('Already up to date');
    const rotate = spawnSync(process.execPath, ['dist/src/cli/rotate-hosting-key.js'], { cwd: root, env, encoding: 'utf8' });
    expect(rotate.status, rotate.stderr).toBe(0);
    const rotated = /^(plh_[0-9a-f]{64})$/m.exec(rotate.stdout)?.[1];
    expect((await fetch(`http://127.0.0.1:${env.PORT}/hosting/api/client?apiKey=${rotated}`)).status).toBe(200);

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it('image entrypoint: serve runs the built server and passes signals, other commands run as given', async () => {
    const port = String(20000 + Math.floor(Math.random() * 20000));
    const entryEnv = { ...env, PORT: port, PLACET_HOME: root, DATABASE_URL: `sqlite:${path.join(dir, 'image.sqlite')}` };
    const child = spawn('sh', ['docker/entrypoint.sh'], { cwd: root, env: entryEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let ready = false;
    for (let i = 0; i < 300 && !ready; i++) {
      ready = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
      if (!ready) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ready).toBe(true);
    // The health check command of the image, against this instance and against a port nobody serves.
    const healthy = spawnSync('sh', ['docker/entrypoint.sh', 'healthcheck'], { cwd: root, env: entryEnv, encoding: 'utf8' });
    expect(healthy.status, healthy.stderr).toBe(0);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM'); // exec: the signal reaches node itself, which shuts down gracefully
    expect(await exited).toBe(0);
    const down = spawnSync('sh', ['docker/entrypoint.sh', 'healthcheck'], { cwd: root, env: entryEnv, encoding: 'utf8' });
    expect(down.status).toBe(1);
    expect(down.stderr).toContain('healthcheck:');

    const other = spawnSync('sh', ['docker/entrypoint.sh', 'echo', 'hello'], { cwd: root, env: entryEnv, encoding: 'utf8' });
    expect(other.stdout).toBe('hello\n');
  }, 60_000);

  it('image health check works over HTTPS with the certificate of the public name', async () => {
    const { writeSelfSignedCert } = await import('./tls-cert.js');
    const { buildApp } = await import('../src/app.js');
    const { testConfig } = await import('../src/config.js');
    const tls = writeSelfSignedCert(dir, 'health');
    const app = await buildApp({ config: testConfig({ database: { kind: 'sqlite', file: ':memory:' }, tls }) });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const port = String((app.server.address() as { port: number }).port);
      const res = await new Promise<number | null>((resolve) => {
        const check = spawn('sh', ['docker/entrypoint.sh', 'healthcheck'], {
          cwd: root, env: { ...env, PORT: port, PLACET_HOME: root, TLS_CERT_FILE: tls.certFile, TLS_KEY_FILE: tls.keyFile },
        });
        check.once('exit', resolve);
      });
      expect(res).toBe(0);
    } finally {
      await app.close();
    }
  }, 30_000);

  it('the Dockerfile builds in stages, runs as a non-root user with a health check, and copies files that exist', () => {
    const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
    const lines = dockerfile.split('\n').filter((l) => !l.startsWith('#'));
    expect(lines.filter((l) => l.startsWith('FROM ')).length).toBeGreaterThanOrEqual(2);
    const user = lines.findIndex((l) => l.startsWith('USER '));
    expect(lines[user]).not.toMatch(/USER\s+(root|0)\b/);
    expect(user).toBeLessThan(lines.findIndex((l) => l.startsWith('ENTRYPOINT ')));
    expect(dockerfile).toMatch(/HEALTHCHECK .*CMD \["placet", "healthcheck"\]/);
    expect(dockerfile).toMatch(/apt-get install .*chromium/);
    for (const line of lines.filter((l) => l.startsWith('COPY ') && !l.includes('--from='))) {
      for (const source of line.split(/\s+/).slice(1, -1)) expect(fs.existsSync(path.join(root, source)), source).toBe(true);
    }
    const compose = fs.readFileSync(path.join(root, 'compose.yaml'), 'utf8');
    expect(compose).toMatch(/DATABASE_URL: postgres:\/\/.*@db:5432\/placet/);
    expect(compose).toMatch(/image: postgres:/);
  });
});
