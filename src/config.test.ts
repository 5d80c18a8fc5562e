import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({}, '/srv/placet');
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      database: { kind: 'sqlite', file: path.resolve('/srv/placet', 'var', 'placet.sqlite') },
      hostingApiKey: undefined,
      publicUrl: 'http://localhost:8080',
      logLevel: 'info',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads sqlite: and postgres:// URLs and derives PUBLIC_URL from PORT', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite:./x/db.sqlite' }, '/srv').database).toEqual({
      kind: 'sqlite',
      file: '/srv/x/db.sqlite',
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/d' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h:5432/d',
    });
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
    expect(loadConfig({ PUBLIC_URL: 'https://cmp.agency.example/' }).publicUrl).toBe('https://cmp.agency.example');
  });

  it('keeps using ./data/placet.sqlite where an install already has it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-config-'));
    fs.mkdirSync(path.join(dir, 'data'));
    fs.writeFileSync(path.join(dir, 'data', 'placet.sqlite'), '');
    expect(loadConfig({}, dir).database).toEqual({ kind: 'sqlite', file: path.join(dir, 'data', 'placet.sqlite') });
    fs.rmSync(dir, { recursive: true });
  });

  it('reads TLS files in pairs, limits and the metrics token', () => {
    expect(loadConfig({ TLS_CERT_FILE: 'c.pem', TLS_KEY_FILE: 'k.pem' }, '/etc/placet').tls).toEqual({
      certFile: '/etc/placet/c.pem', keyFile: '/etc/placet/k.pem',
    });
    expect(() => loadConfig({ TLS_CERT_FILE: 'c.pem' })).toThrow(/TLS_CERT_FILE and TLS_KEY_FILE/);
    expect(loadConfig({}).connections).toEqual({
      requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5000, maxRequestsPerSocket: 1000, maxConnections: undefined,
    });
    expect(loadConfig({ MAX_CONNECTIONS: '500' }).connections.maxConnections).toBe(500);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '10' })).toThrow(/REQUEST_TIMEOUT_MS/);
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(() => loadConfig({ METRICS_TOKEN: 'metricsmetricsmetricsmetrics' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ HOSTING_API_KEY: 'a'.repeat(30) })).toThrow(/HOSTING_API_KEY is too predictable/);
  });

  it('reads COUNTRY_HEADER as a lower-case header name', () => {
    expect(loadConfig({}).countryHeader).toBeUndefined();
    expect(loadConfig({ COUNTRY_HEADER: 'CF-IPCountry' }).countryHeader).toBe('cf-ipcountry');
    expect(() => loadConfig({ COUNTRY_HEADER: 'cf ipcountry' })).toThrow(/COUNTRY_HEADER/);
  });

  it('runs the scanner\'s Chromium as nobody by default, as no other user when SCAN_CHROMIUM_USER is empty', () => {
    expect(loadConfig({}).scan).toMatchObject({ chromiumUser: 'nobody', requireSandbox: false });
    expect(loadConfig({ SCAN_CHROMIUM_USER: 'placet-scan', SCAN_REQUIRE_SANDBOX: 'true' }).scan).toMatchObject({
      chromiumUser: 'placet-scan',
      requireSandbox: true,
    });
    expect(loadConfig({ SCAN_CHROMIUM_USER: '' }).scan.chromiumUser).toBeUndefined();
    expect(() => loadConfig({ SCAN_REQUIRE_SANDBOX: 'maybe' })).toThrow(/SCAN_REQUIRE_SANDBOX/);
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        HOSTING_API_KEY: 'short',
        PUBLIC_URL: 'not a url',
        LOG_LEVEL: 'loud',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(5);
    for (const name of ['PORT', 'DATABASE_URL', 'HOSTING_API_KEY', 'PUBLIC_URL', 'LOG_LEVEL']) {
      expect(problems.some((p) => p.startsWith(name))).toBe(true);
    }
  });
});
