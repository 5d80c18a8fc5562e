import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({}, '/srv/placet');
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      database: { kind: 'sqlite', file: path.resolve('/srv/placet', 'data', 'placet.sqlite') },
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
