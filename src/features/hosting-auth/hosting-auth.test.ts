import { describe, expect, it } from 'vitest';
import { DIALECTS, useApp } from '../../../test/helper.js';
import { randomIds } from '../../deps.js';
import { HOSTING_KEY_SETTING, getSetting } from './hosting-auth.repository.js';
import { ensureHostingKey, rotateHostingKey } from './hosting-auth.service.js';

for (const dialect of DIALECTS) {
  describe(`${dialect}: generated Hosting API key`, () => {
    const ctx = useApp(dialect, { hostingApiKey: undefined });
    const get = (key: string) => ctx.app.inject({ method: 'GET', url: `/hosting/api/client?apiKey=${key}` });

    it('is generated once, stored only as a hash, and works; rotation replaces it at once', async () => {
      const config = { ...ctx.config, hostingApiKey: undefined };
      const [first, second] = await Promise.all([
        ensureHostingKey(ctx.database.db, config, randomIds),
        ensureHostingKey(ctx.database.db, config, randomIds),
      ]);
      const key = first ?? second;
      expect([first, second].filter(Boolean)).toHaveLength(1);
      expect(key).toMatch(/^plh_[0-9a-f]{64}$/);
      expect(await ensureHostingKey(ctx.database.db, config, randomIds)).toBeUndefined();
      const stored = await getSetting(ctx.database.db, HOSTING_KEY_SETTING);
      expect(stored).toMatch(/^[0-9a-f]{64}$/);
      expect(stored).not.toContain(key!.slice(4));
      expect((await get(key!)).statusCode).toBe(200);

      const rotated = await rotateHostingKey(ctx.database.db, randomIds);
      expect(rotated).not.toBe(key);
      expect((await get(key!)).statusCode).toBe(401);
      expect((await get(rotated)).statusCode).toBe(200);
    });

    it('is not generated when HOSTING_API_KEY is set', async () => {
      const config = { ...ctx.config, hostingApiKey: 'configured-key-0123456789abcdef' };
      expect(await ensureHostingKey(ctx.database.db, config, randomIds)).toBeUndefined();
    });
  });
}
