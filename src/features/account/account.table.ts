import type { Selectable } from 'kysely';

export interface AccountThemeTable {
  id: string;
  name: string;
  /** JSON of every Theme setting (as a domain theme's `data`). */
  data: string;
  /** 1: used on every domain of every client. */
  all_domains: number;
  /** JSON array of domain ids it is used on (besides `all_domains`). */
  domain_ids: string;
  created_at: string;
  updated_at: string;
}

export interface AccountTextTable {
  /** A language (`de`, `en`, …): standard texts apply to every locale of that language. */
  language: string;
  /** JSON StoredTexts (locales/locale-texts.ts). */
  texts: string;
  updated_at: string;
}

export interface AccountTables {
  account_themes: AccountThemeTable;
  account_texts: AccountTextTable;
}

export type AccountThemeRow = Selectable<AccountThemeTable>;
export type AccountTextRow = Selectable<AccountTextTable>;
