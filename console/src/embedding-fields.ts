import type { FormField } from './form-fields.js';

/** An embedding's fields (Hosting API `Embedding`), grouped as the editor shows them. */
export const EMBEDDING_TEXT_FIELDS: FormField[] = [
  { key: 'vendor', kind: 'text', en: ['Vendor', 'The company behind the service, with its address, as the banner names it.'], de: ['Anbieter', 'Das Unternehmen hinter dem Dienst, mit Anschrift, wie das Banner es nennt.'] },
  { key: 'description', kind: 'textarea', en: ['Description', 'What the service does on this site, in the banner\'s details.'], de: ['Beschreibung', 'Was der Dienst auf dieser Website tut, in den Details des Banners.'] },
  { key: 'privacyPolicyUrl', kind: 'text', en: ['Vendor\'s privacy policy', 'Its address (https://…), or empty.'], de: ['Datenschutzerklärung des Anbieters', 'Ihre Adresse (https://…) oder leer.'] },
  { key: 'whatDataIsCollected', kind: 'textarea', en: ['Data collected', 'Which data the service collects.'], de: ['Erhobene Daten', 'Welche Daten der Dienst erhebt.'] },
  { key: 'purposeOfDataCollection', kind: 'textarea', en: ['Purpose of the collection', 'What the data is used for.'], de: ['Zweck der Erhebung', 'Wofür die Daten verwendet werden.'] },
  { key: 'legalBasis', kind: 'textarea', en: ['Legal basis', 'e.g. Art. 6 (1) a GDPR (consent).'], de: ['Rechtsgrundlage', 'z. B. Art. 6 Abs. 1 lit. a DSGVO (Einwilligung).'] },
  { key: 'placeOfProcessing', kind: 'textarea', en: ['Place of processing', 'Where the data is processed, e.g. European Union, USA.'], de: ['Ort der Verarbeitung', 'Wo die Daten verarbeitet werden, z. B. Europäische Union, USA.'] },
];

export const EMBEDDING_BLOCKING_FIELDS: FormField[] = [
  { key: 'scriptMarkers', kind: 'list', en: ['Script markers', 'One per line: scripts whose address or code contains one wait for consent to this embedding, e.g. googletagmanager.com.'], de: ['Skript-Merkmale', 'Eines pro Zeile: Skripte, deren Adresse oder Code es enthält, warten auf die Zustimmung zu dieser Einbindung, z. B. googletagmanager.com.'] },
  { key: 'iframeMarkers', kind: 'list', en: ['Iframe markers', 'One per line: iframes whose address contains one wait for consent to this embedding, e.g. youtube.com/embed.'], de: ['Iframe-Merkmale', 'Eines pro Zeile: Iframes, deren Adresse es enthält, warten auf die Zustimmung zu dieser Einbindung, z. B. youtube.com/embed.'] },
  { key: 'hideIframesUntilConsent', kind: 'bool', en: ['Hide its iframes until consent', 'Leave the space empty instead of showing the "load this content" overlay.'], de: ['Iframes bis zur Zustimmung ausblenden', 'Den Platz leer lassen statt des Hinweises „Inhalt laden“.'] },
  { key: 'scriptHtmlCode', kind: 'textarea', en: ['Code added after consent', 'HTML (e.g. a <script> tag) the widget adds to the page once the visitor consents ("tag-manager mode").'], de: ['Code nach Zustimmung', 'HTML (z. B. ein <script>-Tag), das das Widget nach der Zustimmung in die Seite einfügt („Tag-Manager-Modus“).'] },
  { key: 'scriptLoaderGroup', kind: 'text', en: ['Script loader group', 'Letters, digits and _ . : -; embeddings of one group load their code in order.'], de: ['Ladegruppe', 'Buchstaben, Ziffern und _ . : -; Einbindungen einer Gruppe laden ihren Code der Reihe nach.'] },
  { key: 'excludeUrlsMode', kind: 'select', options: ['exclude', 'include'], en: ['Pages mode', 'exclude: inactive on the pages listed below; include: active only there.'], de: ['Seitenmodus', 'exclude: auf den unten gelisteten Seiten inaktiv; include: nur dort aktiv.'] },
  { key: 'excludeFromUrls', kind: 'list', en: ['Pages', 'One address per line; a trailing * matches every address that begins so.'], de: ['Seiten', 'Eine Adresse pro Zeile; ein * am Ende passt auf jede so beginnende Adresse.'] },
  { key: 'googleConsentMode', kind: 'multi', options: ['ad_storage', 'analytics_storage', 'ad_user_data', 'ad_personalization', 'functionality_storage', 'personalization_storage', 'security_storage'], en: ['Google Consent Mode', 'The consent types granted to Google tags when this embedding is accepted.'], de: ['Google Consent Mode', 'Die Einwilligungsarten, die Google-Tags erhalten, wenn diese Einbindung akzeptiert ist.'] },
  { key: 'tcfVendor', kind: 'nullint', en: ['IAB TCF vendor id', 'The vendor\'s number in the Global Vendor List, or empty (stored; TCF is not implemented yet).'], de: ['IAB-TCF-Anbieter-ID', 'Die Nummer des Anbieters in der Global Vendor List oder leer (gespeichert; TCF ist noch nicht umgesetzt).'] },
  { key: 'tcfPurposes', kind: 'intlist', en: ['IAB TCF purposes', 'Numbers, one per line (stored only).'], de: ['IAB-TCF-Zwecke', 'Nummern, eine pro Zeile (nur gespeichert).'] },
  { key: 'tcfSpecialFeatures', kind: 'intlist', en: ['IAB TCF special features', 'Numbers, one per line (stored only).'], de: ['IAB-TCF-Sondermerkmale', 'Nummern, eine pro Zeile (nur gespeichert).'] },
];

/** An embedding's translation: per locale, the texts that differ from the main ones. */
export const EMBEDDING_TRANSLATION_FIELDS: FormField[] = [
  { key: 'name', kind: 'text', en: ['Name', 'Empty: the main name.'], de: ['Name', 'Leer: der Hauptname.'] },
  { key: 'description', kind: 'textarea', en: ['Description', 'Empty: the main description.'], de: ['Beschreibung', 'Leer: die Hauptbeschreibung.'] },
  { key: 'privacyPolicyUrl', kind: 'text', en: ['Vendor\'s privacy policy', 'Empty: the main address.'], de: ['Datenschutzerklärung des Anbieters', 'Leer: die Hauptadresse.'] },
  { key: 'blockedContentTitle', kind: 'text', en: ['Blocked content: title', 'Shown over a blocked iframe of this embedding.'], de: ['Blockierter Inhalt: Titel', 'Über einem blockierten Iframe dieser Einbindung.'] },
  { key: 'blockedContentText', kind: 'textarea', en: ['Blocked content: text', 'Shown over a blocked iframe of this embedding.'], de: ['Blockierter Inhalt: Text', 'Über einem blockierten Iframe dieser Einbindung.'] },
  { key: 'blockedContentButtonText', kind: 'text', en: ['Blocked content: button', 'The button that loads it.'], de: ['Blockierter Inhalt: Knopf', 'Der Knopf, der ihn lädt.'] },
];

export const ASSET_FIELDS: FormField[] = [
  { key: 'name', kind: 'text', en: ['Cookie or entry name', 'As in the browser, e.g. _ga; * is a wildcard (_pk_id.*).'], de: ['Name des Cookies oder Eintrags', 'Wie im Browser, z. B. _ga; * ist ein Platzhalter (_pk_id.*).'] },
  { key: 'storageType', kind: 'select', options: ['cookie', 'localStorage', 'sessionStorage', 'indexedDb', 'webSql', 'other'], en: ['Kind of storage', 'Where the browser keeps it.'], de: ['Speicherart', 'Wo der Browser es ablegt.'] },
  { key: 'lifetime', kind: 'text', en: ['Lifetime', 'Free text such as "2 years" or "session".'], de: ['Laufzeit', 'Freitext wie „2 Jahre“ oder „Sitzung“.'] },
  { key: 'description', kind: 'textarea', en: ['Description', 'What it is for.'], de: ['Beschreibung', 'Wofür es dient.'] },
  { key: 'dynamic', kind: 'bool', en: ['Name is a pattern', 'The name stands for several (with * as the wildcard).'], de: ['Name ist ein Muster', 'Der Name steht für mehrere (mit * als Platzhalter).'] },
];
