import type { Lang } from './i18n.js';

/** Domain settings the console edits, with a label and a help text per language. */
export type FieldKind = 'text' | 'number' | 'bool' | 'select' | 'list';
export interface DomainField {
  key: string;
  kind: FieldKind;
  options?: string[];
  en: [label: string, help: string];
  de: [label: string, help: string];
}

export const DOMAIN_FIELDS: DomainField[] = [
  { key: 'name', kind: 'text', en: ['Host', 'The host name (with :port when needed). The path stays as created.'], de: ['Host', 'Der Hostname (bei Bedarf mit :Port). Der Pfad bleibt wie angelegt.'] },
  { key: 'country', kind: 'text', en: ['Country', 'ISO code such as DE or AT; ZZ for unknown; empty for none.'], de: ['Land', 'ISO-Code wie DE oder AT; ZZ für unbekannt; leer für keines.'] },
  { key: 'frontendWidgetEnabled', kind: 'bool', en: ['Widget on', 'When off, the banner is not shown and nothing that needs consent runs.'], de: ['Widget an', 'Aus: Das Banner erscheint nicht, und nichts Zustimmungspflichtiges läuft.'] },
  { key: 'consentStorage', kind: 'select', options: ['localStorage', 'cookie', 'sessionStorage'], en: ['Where the decision is kept', 'In the visitor\'s browser: local storage, a cookie, or only for the tab.'], de: ['Wo die Entscheidung liegt', 'Im Browser der Besucher: Local Storage, ein Cookie oder nur für den Tab.'] },
  { key: 'consentCookieLifetime', kind: 'number', en: ['Decision valid for (days)', '0 = until the browser closes; at most 3650.'], de: ['Entscheidung gültig (Tage)', '0 = bis der Browser schließt; höchstens 3650.'] },
  { key: 'consentResetOnLegalChange', kind: 'bool', en: ['Ask again after legal changes', 'Visitors decide again when an embedding\'s legal texts change.'], de: ['Nach rechtlichen Änderungen neu fragen', 'Besucher entscheiden neu, wenn sich Rechtstexte einer Einbindung ändern.'] },
  { key: 'declineButtonEnforced', kind: 'bool', en: ['Always show a decline button', 'Whenever "accept all" is shown, "decline" is shown too.'], de: ['Ablehnen-Knopf immer zeigen', 'Wo „Alle akzeptieren“ steht, steht auch „Ablehnen“.'] },
  { key: 'blockIframes', kind: 'bool', en: ['Block iframes until consent', 'Embedded videos and maps load only after consent.'], de: ['Iframes bis zur Zustimmung blockieren', 'Eingebettete Videos und Karten laden erst nach Zustimmung.'] },
  { key: 'iframeBlockMode', kind: 'select', options: ['whitelist', 'blacklist'], en: ['Iframe blocking mode', 'whitelist: block every iframe not listed below; blacklist: block only those listed.'], de: ['Iframe-Blockiermodus', 'whitelist: jedes nicht gelistete Iframe blockieren; blacklist: nur gelistete.'] },
  { key: 'iframeMarkers', kind: 'list', en: ['Iframe markers', 'One per line: parts of iframe addresses, e.g. youtube.com.'], de: ['Iframe-Merkmale', 'Eines pro Zeile: Teile von Iframe-Adressen, z. B. youtube.com.'] },
  { key: 'blockedScriptMarkers', kind: 'list', en: ['Always blocked scripts', 'One per line: scripts whose address or code contains one never run.'], de: ['Immer blockierte Skripte', 'Eines pro Zeile: Skripte, deren Adresse oder Code es enthält, laufen nie.'] },
  { key: 'consentSharingDomains', kind: 'list', en: ['Hosts sharing the consent', 'One host per line, e.g. example.com (it and its subdomains).'], de: ['Hosts mit gemeinsamer Zustimmung', 'Ein Host pro Zeile, z. B. example.com (samt Subdomains).'] },
];

export const fieldText = (field: DomainField, lang: Lang) => (lang === 'de' ? field.de : field.en);
