import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCatalogue } from './catalogue-rules.js';
import { normaliseCategory, parseCsv, readOcdRows } from './ocd-csv.js';
import { lifetimeOf, mergeCatalogues, ocdToPresets } from './ocd-import.js';
import { catalogueFile, projectRoot, type Preset } from './preset-catalogue.js';

const root = projectRoot();
const SAMPLE = path.join(root, 'test/fixtures/onboarding/ocd-sample.csv');
/** The shared copy of the Open Cookie Database; present in the development checkout, not in the project. */
const SHARED_CSV = path.resolve(root, '../shared/data/open-cookie-database.csv');
const ours = () => JSON.parse(readFileSync(catalogueFile(), 'utf8')) as Preset[];

describe('CSV parsing', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, and CRLF or LF rows', () => {
    expect(parseCsv('\uFEFFa,b,c\r\n"x, y","say ""hi""","two\r\nlines"\n1,,3\n\n')).toEqual([
      ['a', 'b', 'c'],
      ['x, y', 'say "hi"', 'two\r\nlines'],
      ['1', '', '3'],
    ]);
  });

  it.each([
    ['Functional', 'functional'], [' necessary ', 'necessary'], ['Necessary', 'necessary'], ['Strictly Necessary', 'necessary'],
    ['Statistics', 'analytics'], ['advertising', 'marketing'], ['Personalisation', 'personalization'], ['Security', 'security'],
  ])('normalises the category %j', (raw, expected) => {
    expect(normaliseCategory(raw)).toBe(expected);
  });

  it('leaves unknown categories unmapped', () => {
    expect(normaliseCategory('Stats & stuff')).toBeUndefined();
  });

  it.each([
    ['1 Year', '1 year', '1 Jahr'], ['13 months', '13 months', '13 Monate'], ['session', 'Session', 'Sitzung'],
    ['End of session (browser)', 'Session', 'Sitzung'], ['30 minutes', '30 minutes', '30 Minuten'], ['Unknown', 'Unknown', 'Unbekannt'],
    ['180 days after last activity', '180 days after last activity', '180 days after last activity'],
  ])('translates the retention %j', (raw, en, de) => {
    expect(lifetimeOf(raw)).toEqual({ en, de });
  });
});

describe('Open Cookie Database import', () => {
  const { rows, skipped } = readOcdRows(readFileSync(SAMPLE, 'utf8'));
  const imported = ocdToPresets(rows);
  const byName = new Map(imported.presets.map((p) => [p.name, p]));

  it('skips rows it cannot map, naming why', () => {
    expect(skipped).toEqual([{ row: 14, name: 'weird', reason: 'unknown category "Stats & stuff"' }]);
    expect(rows).toHaveLength(12);
  });

  it('groups a platform by purpose: the biggest group keeps the name', () => {
    expect([...byName.keys()]).toEqual([
      'Acme Analytics', 'Acme Analytics (Essential)', 'Acme Analytics (Functional)', 'Acme Analytics (Marketing)',
      'Matomo', 'Piwik Clone', 'Tiny',
    ]);
    expect(byName.get('Acme Analytics')).toMatchObject({ purpose: 'a717ff5', vendor: 'Acme Inc.', privacyPolicyUrl: 'https://acme.example/privacy' });
    expect(byName.get('Acme Analytics (Essential)')!.purpose).toBe('41ba25c');
    expect(byName.get('Acme Analytics (Functional)')!.purpose).toBe('15c61c3');
    expect(byName.get('Acme Analytics (Marketing)')!.purpose).toBe('cdcbd7c');
  });

  it('turns the wildcard flag into *, drops duplicates and HTML, and reads storage from the retention', () => {
    expect(byName.get('Acme Analytics')!.assets).toEqual([
      {
        name: 'acme_id', storageType: 'cookie', dynamic: false, lifetime: { en: '1 year', de: '1 Jahr' },
        description: { en: 'Stores a visitor id, used "for" reports', de: 'Stores a visitor id, used "for" reports' },
      },
      {
        name: 'acme_sess_*', storageType: 'cookie', dynamic: true, lifetime: { en: 'Session', de: 'Sitzung' },
        description: { en: 'Marks the session across pages', de: 'Marks the session across pages' },
      },
    ]);
    expect(byName.get('Acme Analytics (Marketing)')!.assets[0]!.description.en).toBe('Ad targeting');
    expect(byName.get('Acme Analytics (Functional)')!.assets[0]).toMatchObject({ name: 'acme_store', storageType: 'localStorage' });
  });

  it('refuses wildcards too short to match safely and upgrades http privacy links', () => {
    expect(byName.get('Tiny')!.assets.map((a) => a.name)).toEqual(['tiny_uid']);
    expect(byName.get('Tiny')!.privacyPolicyUrl).toBe('https://tiny.example/privacy');
    expect(imported.skipped).toEqual(expect.arrayContaining([
      { name: 'tp*', reason: 'wildcard name too short to match safely' },
      { name: 'No Url', reason: 'no privacy policy URL' },
    ]));
  });

  it('merges without touching our entries or duplicating a service, and again changes nothing', () => {
    const catalogue = ours();
    const first = mergeCatalogues(catalogue, imported.presets);
    expect(first.catalogue.slice(0, catalogue.length)).toEqual(catalogue);
    expect(first.added.map((p) => p.name)).toEqual([
      'Acme Analytics', 'Acme Analytics (Essential)', 'Acme Analytics (Functional)', 'Acme Analytics (Marketing)', 'Tiny',
    ]);
    const top = Math.max(...catalogue.map((p) => p.id));
    expect(first.added.map((p) => p.id)).toEqual([top + 1, top + 2, top + 3, top + 4, top + 5]);
    expect(first.skipped).toEqual([
      { name: 'Matomo', reason: 'a preset with this name exists' },
      { name: 'Piwik Clone', reason: 'most of its cookies belong to an existing preset' },
    ]);
    expect(checkCatalogue(first.catalogue).problems).toEqual([]);
    const second = mergeCatalogues(first.catalogue, imported.presets);
    expect(second.added).toEqual([]);
    expect(second.catalogue).toEqual(first.catalogue);
  });

  it.skipIf(!existsSync(SHARED_CSV))('maps the whole shared Open Cookie Database into a valid catalogue', () => {
    const all = readOcdRows(readFileSync(SHARED_CSV, 'utf8'));
    expect(all.rows.length).toBeGreaterThan(2000);
    const { presets } = ocdToPresets(all.rows);
    const merged = mergeCatalogues(ours(), presets);
    expect(merged.added.length).toBeGreaterThan(200);
    const report = checkCatalogue(merged.catalogue);
    expect(report.problems).toEqual([]);
    const necessary = merged.added.filter((p) => p.purpose === '41ba25c');
    expect(necessary.length).toBeGreaterThan(0);
  });

  it('runs as npm run presets:import, writing to --out and leaving data/presets.json alone', () => {
    const before = readFileSync(catalogueFile(), 'utf8');
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'placet-import-')), 'presets.json');
    const log = execFileSync(path.join(root, 'node_modules/.bin/tsx'), ['scripts/import-presets.ts', SAMPLE, '--out', out], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(log).toContain('5 added');
    const written = readFileSync(out, 'utf8');
    expect(written).toBe(`${JSON.stringify(JSON.parse(written), null, 2)}\n`);
    expect((JSON.parse(written) as Preset[]).length).toBe(ours().length + 5);
    expect(readFileSync(catalogueFile(), 'utf8')).toBe(before);
  });
});
