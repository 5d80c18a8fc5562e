import type { Kysely } from 'kysely';
import { sanitizeLegalHtml } from '../../features/locales/locale-html.js';

const HTML_FIELDS = ['imprintHtmlCode', 'privacyPolicyHtmlCode', 'accessibilityHtmlCode'];
const PAGE = 200;

/**
 * Locale HTML is sanitised when written since this release (docs/widget.md, "Legal pages"); this brings the
 * values stored before it to the same state, so what the API shows is what visitors' pages render, and the
 * read paths stay free of sanitising work. A domain whose HTML changed gets a new configuration revision,
 * so no cache keeps serving the old widget configuration. It uses today's sanitiser on purpose: the policy
 * to apply is the current one. `down` cannot restore removed markup and leaves the data as it is.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's types
export async function up(db: Kysely<any>): Promise<void> {
  let after: { domainId: string; name: string } | undefined;
  for (;;) {
    let query = db.selectFrom('locales').select(['domain_id', 'name', 'texts']).orderBy('domain_id').orderBy('name').limit(PAGE);
    if (after) {
      const { domainId, name } = after;
      query = query.where((eb) =>
        eb.or([eb('domain_id', '>', domainId), eb.and([eb('domain_id', '=', domainId), eb('name', '>', name)])]),
      );
    }
    const rows = (await query.execute()) as { domain_id: string; name: string; texts: string }[];
    for (const row of rows) {
      const stored = JSON.parse(row.texts) as { texts?: Record<string, string> };
      const texts = stored.texts ?? {};
      let changed = false;
      for (const field of HTML_FIELDS) {
        const value = texts[field];
        if (value === undefined) continue;
        const clean = sanitizeLegalHtml(value);
        if (clean === value) continue;
        changed = true;
        if (clean === '') delete texts[field];
        else texts[field] = clean;
      }
      if (!changed) continue;
      await db
        .updateTable('locales')
        .set({ texts: JSON.stringify({ ...stored, texts }) })
        .where('domain_id', '=', row.domain_id)
        .where('name', '=', row.name)
        .execute();
      await db
        .updateTable('domains')
        .set((eb) => ({ config_revision: eb('config_revision', '+', 1) }))
        .where('id', '=', row.domain_id)
        .execute();
    }
    if (rows.length < PAGE) return;
    const last = rows.at(-1)!;
    after = { domainId: last.domain_id, name: last.name };
  }
}

export async function down(): Promise<void> {}
