import fs from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { hostingCall } from './browser.js';
import { unique } from './helper.js';

/**
 * What the real-snippet suites (test/real-snippets.browser.test.ts, test/real-snippets-more.browser.test.ts)
 * share: the preset catalogue and the widget's way of matching its markers, the stand-in page every vendor frame
 * gets, and a domain whose embeddings are imported from the catalogue as an agency would.
 */

export interface Preset {
  id: number;
  name: string;
  purpose: string;
  scriptMarkers: string[];
  iframeMarkers: string[];
}

export const CATALOGUE = JSON.parse(fs.readFileSync(new URL('../data/presets.json', import.meta.url), 'utf8')) as Preset[];

/** As the widget matches (widget/src/scripts.ts `has`, markers lower-cased by the server). */
export const matches = (s: string, markers: string[]) => markers.some((m) => s.toLowerCase().includes(m.toLowerCase()));

/** A vendor frame's stand-in page: its `/__ran` fetch from its own host tells the test that it ran. */
export const STAND_IN_PAGE = '<!doctype html><p>vendor stand-in</p><script>fetch("/__ran?" + encodeURIComponent(location.href))</script>';

export interface Opened {
  context: BrowserContext;
  page: Page;
  /** Every request to a vendor host (preloads included), in order. */
  requests: string[];
  /** Uncaught errors of the page's scripts, where a test collects them. */
  errors?: string[];
}

type Hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => ReturnType<typeof hostingCall>;

/**
 * A client and a domain `name`, with one active embedding per preset, each found by name through the catalogue
 * browse endpoint, imported (inactive) and activated with a PUT, as README "Onboarding" describes. Iframes are
 * blocked in `blacklist` mode, so only the presets' iframe markers block them. `snippet` is the widget's script tag
 * for the app at `appUrl`.
 */
export async function presetDomain(hosting: Hosting, appUrl: string, name: string, presetNames: readonly string[]) {
  const client = await hosting('POST', '/client', { username: unique('rs'), password: 'long enough pw', emailAddress: 'rs@example.com' });
  const domain = await hosting('POST', `/client/${client.id}/domain`, { name });
  const base = `/client/${client.id}/domain/${domain.id}`;
  await hosting('PUT', base, { iframeBlockMode: 'blacklist' });
  const ids: number[] = [];
  for (const presetName of presetNames) {
    const page = await hosting('GET', `/onboarding/presets?search=${encodeURIComponent(presetName)}&limit=200`);
    const preset = (page.items as { id: number; name: string }[]).find((p) => p.name === presetName);
    expect(preset, presetName).toBeDefined();
    ids.push(preset!.id);
  }
  const imported = (await hosting('POST', `${base}/onboarding/presets`, ids.map((id) => ({ id })))) as { presetId: number; embeddingId: string }[];
  expect(imported).toHaveLength(presetNames.length);
  /** Embedding id per preset name. */
  const embeddings: Record<string, string> = {};
  for (const { presetId, embeddingId } of imported) {
    expect((await hosting('PUT', `${base}/embedding/${embeddingId}`, { active: true })).active).toBe(true);
    embeddings[presetNames[ids.indexOf(presetId)]!] = embeddingId;
  }
  const snippet = `<script src="${appUrl}/public/app.js?apiKey=${client.apiKey}&amp;domain=${domain.id}" referrerpolicy="origin"></script>`;
  return { base, embeddings, snippet };
}

/**
 * Consent to one purpose only, as a visitor gives it: the first layer's "Settings", the purpose's switch (its label
 * in the widget's language, e.g. `Analytics`), "Save".
 */
export async function acceptOnlyPurpose(page: Page, purpose: string) {
  const widget = page.locator('#ccm-widget');
  await widget.locator('button.s', { hasText: 'Settings' }).click();
  await widget.locator('label', { hasText: purpose }).locator('input').check();
  await widget.locator('button.a', { hasText: 'Save' }).click();
}
