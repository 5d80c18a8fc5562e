import type { FormField } from './form-fields.js';

/**
 * Every domain setting of the Hosting API (`Domain`), grouped, with a label and a help text per language.
 * Fields the widget does not act on yet say so in their help (README, "Domains"; docs/widget.md, "Not implemented yet").
 */
export interface DomainGroup {
  en: string;
  de: string;
  fields: FormField[];
}

const STORED_ONLY_EN = ' (Stored; the widget does not act on it yet.)';
const STORED_ONLY_DE = ' (Gespeichert; das Widget wertet es noch nicht aus.)';

export const DOMAIN_GROUPS: DomainGroup[] = [
  {
    en: 'General', de: 'Allgemein', fields: [
      { key: 'name', kind: 'text', en: ['Host', 'The host name (with :port when needed). The path stays as created.'], de: ['Host', 'Der Hostname (bei Bedarf mit :Port). Der Pfad bleibt wie angelegt.'] },
      { key: 'country', kind: 'text', en: ['Country', 'ISO code such as DE or AT; ZZ for unknown; empty for none.'], de: ['Land', 'ISO-Code wie DE oder AT; ZZ für unbekannt; leer für keines.'] },
      { key: 'frontendWidgetEnabled', kind: 'bool', en: ['Widget on', 'When off, the banner is not shown and nothing that needs consent runs.'], de: ['Widget an', 'Aus: Das Banner erscheint nicht, und nichts Zustimmungspflichtiges läuft.'] },
      { key: 'frontendWidgetCache', kind: 'bool', en: ['Widget cache', `Let browsers keep the widget.${STORED_ONLY_EN}`], de: ['Widget-Cache', `Browser dürfen das Widget zwischenspeichern.${STORED_ONLY_DE}`] },
      { key: 'frontendWidgetMinifyCode', kind: 'bool', en: ['Minified widget code', `Serve the compact build of the widget.${STORED_ONLY_EN} It is always served minified.`], de: ['Komprimierter Widget-Code', `Die kompakte Fassung des Widgets ausliefern.${STORED_ONLY_DE} Es wird immer komprimiert ausgeliefert.`] },
      { key: 'whitelabel', kind: 'bool', en: ['White label', 'Uses one of the client\'s white-label licences: no Placet branding in the banner.'], de: ['White Label', 'Belegt eine der White-Label-Lizenzen des Kunden: kein Placet-Hinweis im Banner.'] },
      { key: 'managementStructure', kind: 'select', options: ['embedding', 'cookie'], en: ['Settings layer lists', `embedding: visitors choose per service; cookie: per cookie.${STORED_ONLY_EN}`], de: ['Einstellungsebene zeigt', `embedding: Besucher wählen je Dienst; cookie: je Cookie.${STORED_ONLY_DE}`] },
    ],
  },
  {
    en: 'The visitor\'s decision', de: 'Die Entscheidung der Besucher', fields: [
      { key: 'consentStorage', kind: 'select', options: ['localStorage', 'cookie', 'sessionStorage'], en: ['Where the decision is kept', 'In the visitor\'s browser: local storage, a cookie, or only for the tab.'], de: ['Wo die Entscheidung liegt', 'Im Browser der Besucher: Local Storage, ein Cookie oder nur für den Tab.'] },
      { key: 'consentCookieLifetime', kind: 'number', en: ['Decision valid for (days)', '0 = until the browser closes; at most 3650.'], de: ['Entscheidung gültig (Tage)', '0 = bis der Browser schließt; höchstens 3650.'] },
      { key: 'consentCookieSecure', kind: 'bool', en: ['Secure consent cookie', 'The consent cookie is sent over https only.'], de: ['Sicheres Einwilligungs-Cookie', 'Das Einwilligungs-Cookie wird nur über https gesendet.'] },
      { key: 'consentResetBeforeDate', kind: 'date', en: ['Ask again for decisions before', 'Decisions made before this date are void; empty for none.'], de: ['Neu fragen bei Entscheidungen vor', 'Entscheidungen vor diesem Datum gelten nicht mehr; leer für keines.'] },
      { key: 'consentResetOnLegalChange', kind: 'bool', en: ['Ask again after legal changes', 'Visitors decide again when an embedding\'s legal texts change.'], de: ['Nach rechtlichen Änderungen neu fragen', 'Besucher entscheiden neu, wenn sich Rechtstexte einer Einbindung ändern.'] },
      { key: 'declineButtonEnforced', kind: 'bool', en: ['Always show a decline button', 'Whenever "accept all" is shown, "decline" is shown too.'], de: ['Ablehnen-Knopf immer zeigen', 'Wo „Alle akzeptieren“ steht, steht auch „Ablehnen“.'] },
      { key: 'requireConsentForMandatoryEmbeddings', kind: 'bool', en: ['Necessary embeddings wait for consent too', 'Off: technically necessary embeddings are always accepted.'], de: ['Auch notwendige Einbindungen warten', 'Aus: Technisch notwendige Einbindungen gelten immer als akzeptiert.'] },
      { key: 'consentSharingDomains', kind: 'list', en: ['Hosts sharing the consent', 'One host per line, e.g. example.com (it and its subdomains).'], de: ['Hosts mit gemeinsamer Zustimmung', 'Ein Host pro Zeile, z. B. example.com (samt Subdomains).'] },
      { key: 'consentSharingCrossDomain', kind: 'bool', en: ['Carry the consent across sites', 'The decision travels to the hosts above in the address of links, forms and iframes.'], de: ['Zustimmung über Websites mitnehmen', 'Die Entscheidung reist in der Adresse von Links, Formularen und Iframes zu den Hosts oben.'] },
    ],
  },
  {
    en: 'Scripts and cookies', de: 'Skripte und Cookies', fields: [
      { key: 'blockedScriptMarkers', kind: 'list', en: ['Always blocked scripts', 'One per line: scripts whose address or code contains one never run.'], de: ['Immer blockierte Skripte', 'Eines pro Zeile: Skripte, deren Adresse oder Code es enthält, laufen nie.'] },
      { key: 'allowedScriptMarkers', kind: 'list', en: ['Never blocked scripts', 'One per line: scripts whose address or code contains one are never blocked.'], de: ['Nie blockierte Skripte', 'Eines pro Zeile: Skripte, deren Adresse oder Code es enthält, werden nie blockiert.'] },
      { key: 'blockNewScripts', kind: 'bool', en: ['Block unknown third-party scripts', 'A third-party script no embedding claims never runs.'], de: ['Unbekannte Skripte Dritter blockieren', 'Ein Skript Dritter, das keine Einbindung beansprucht, läuft nie.'] },
      { key: 'blockFirstPartyScripts', kind: 'bool', en: ['Block unknown own scripts', 'The same for scripts from the site itself.'], de: ['Unbekannte eigene Skripte blockieren', 'Dasselbe für Skripte der Website selbst.'] },
      { key: 'blockInlineScripts', kind: 'bool', en: ['Block unknown inline scripts', 'The same for scripts written into the page.'], de: ['Unbekannte Inline-Skripte blockieren', 'Dasselbe für in die Seite geschriebene Skripte.'] },
      { key: 'evalInlineScripts', kind: 'bool', en: ['Run released inline scripts with eval', 'For sites whose Content Security Policy allows it.'], de: ['Freigegebene Inline-Skripte per eval ausführen', 'Für Websites, deren Content Security Policy es erlaubt.'] },
      { key: 'deleteUnknownCookies', kind: 'bool', en: ['Delete unknown cookies', 'First-party cookies that no active embedding declares are deleted.'], de: ['Unbekannte Cookies löschen', 'Eigene Cookies, die keine aktive Einbindung angibt, werden gelöscht.'] },
      { key: 'deleteUnknownCookiesForceReload', kind: 'bool', en: ['Reload after deleting', 'Reload the page once when something was deleted.'], de: ['Nach dem Löschen neu laden', 'Die Seite einmal neu laden, wenn etwas gelöscht wurde.'] },
      { key: 'recordScriptsOnWebsite', kind: 'bool', en: ['Record scripts found on the site', 'Report third-party scripts and iframes no embedding declares (once per browser and day).'], de: ['Gefundene Skripte erfassen', 'Skripte und iframes Dritter melden, die keine Einbindung deklariert (einmal pro Browser und Tag).'] },
      { key: 'permanentScanEnabled', kind: 'bool', en: ['Scan continuously', "Report cookie and storage names no embedding declares, from visitors' browsers."], de: ['Dauerhaft scannen', 'Cookie- und Speichernamen melden, die keine Einbindung deklariert, aus den Browsern der Besucher.'] },
    ],
  },
  {
    en: 'Iframes', de: 'Iframes', fields: [
      { key: 'blockIframes', kind: 'bool', en: ['Block iframes until consent', 'Embedded videos and maps load only after consent.'], de: ['Iframes bis zur Zustimmung blockieren', 'Eingebettete Videos und Karten laden erst nach Zustimmung.'] },
      { key: 'iframeBlockMode', kind: 'select', options: ['whitelist', 'blacklist'], en: ['Iframe blocking mode', 'whitelist: block every iframe not listed below; blacklist: block only those listed.'], de: ['Iframe-Blockiermodus', 'whitelist: jedes nicht gelistete Iframe blockieren; blacklist: nur gelistete.'] },
      { key: 'iframeMarkers', kind: 'list', en: ['Iframe markers', 'One per line: parts of iframe addresses, e.g. youtube.com.'], de: ['Iframe-Merkmale', 'Eines pro Zeile: Teile von Iframe-Adressen, z. B. youtube.com.'] },
      { key: 'strictBlocking', kind: 'bool', en: ['Strict mode', 'Not one request to a blocked service\'s hosts before consent, even for scripts, iframes, stylesheets, fonts and images in the page\'s HTML; hosts that no service names are refused. The snippet carries a Content-Security-Policy per service, and the page reloads once when one is accepted. Paste the snippet again after changing services.'], de: ['Strenger Modus', 'Keine einzige Anfrage an die Hosts eines blockierten Dienstes vor der Zustimmung, auch für Skripte, Iframes, Stylesheets, Schriften und Bilder im HTML der Seite; Hosts, die kein Dienst nennt, bleiben gesperrt. Das Snippet trägt eine Content-Security-Policy je Dienst, und die Seite lädt einmal neu, wenn einer akzeptiert wird. Nach Änderungen an Diensten das Snippet neu einfügen.'] },
      { key: 'strictAllowedHosts', kind: 'list', en: ['Hosts allowed in strict mode', 'One host per line (with its subdomains), e.g. cdn.jsdelivr.net: what the site loads from hosts that are no service (scripts, frames, styles, fonts, images, API calls).'], de: ['Erlaubte Hosts im strengen Modus', 'Ein Host pro Zeile (samt Subdomains), z. B. cdn.jsdelivr.net: was die Website von Hosts lädt, die kein Dienst sind (Skripte, Frames, Styles, Schriften, Bilder, API-Aufrufe).'] },
      { key: 'useAccountTheme', kind: 'bool', en: ['Use the agency\'s theme', 'An account theme the agency distributed to this domain is used instead of its default theme. Off: the domain keeps its own.'], de: ['Design der Agentur verwenden', 'Ein Konto-Design, das die Agentur dieser Domain zugewiesen hat, ersetzt ihr Standard-Design. Aus: Die Domain behält ihr eigenes.'] },
      { key: 'rememberIframeConsentPerDomain', kind: 'bool', en: ['Remember iframe consent per host', 'Loading one iframe of a host nobody claims allows all of its iframes from then on.'], de: ['Iframe-Zustimmung je Host merken', 'Wer ein Iframe eines nicht beanspruchten Hosts lädt, erlaubt fortan alle Iframes dieses Hosts.'] },
      { key: 'appendConsentSwitchToIframes', kind: 'bool', en: ['Switch below loaded iframes', 'A loaded iframe gets a switch to withdraw the consent to its service.'], de: ['Schalter unter geladenen Iframes', 'Ein geladenes Iframe bekommt einen Schalter, um die Zustimmung zu seinem Dienst zu widerrufen.'] },
    ],
  },
  {
    en: 'Legal pages', de: 'Rechtliche Seiten', fields: [
      { key: 'imprintDisplayMode', kind: 'select', options: ['link', 'direct'], en: ['Imprint shown as', 'link: a link to the page; direct: its text inside the banner.'], de: ['Impressum erscheint als', 'link: Link auf die Seite; direct: sein Text im Banner.'] },
      { key: 'imprintOpenInNewTab', kind: 'bool', en: ['Imprint opens in a new tab', 'For the link mode.'], de: ['Impressum öffnet in neuem Tab', 'Für den Link-Modus.'] },
      { key: 'imprintShowWidget', kind: 'bool', en: ['Banner on the imprint page', 'Off: the imprint stays readable without a decision.'], de: ['Banner auf der Impressumsseite', 'Aus: Das Impressum bleibt ohne Entscheidung lesbar.'] },
      { key: 'privacyPolicyDisplayMode', kind: 'select', options: ['link', 'direct'], en: ['Privacy policy shown as', 'link: a link to the page; direct: its text inside the banner.'], de: ['Datenschutzerklärung erscheint als', 'link: Link auf die Seite; direct: ihr Text im Banner.'] },
      { key: 'privacyPolicyOpenInNewTab', kind: 'bool', en: ['Privacy policy opens in a new tab', 'For the link mode.'], de: ['Datenschutzerklärung öffnet in neuem Tab', 'Für den Link-Modus.'] },
      { key: 'privacyPolicyShowWidget', kind: 'bool', en: ['Banner on the privacy policy page', 'Off: the policy stays readable without a decision.'], de: ['Banner auf der Datenschutzseite', 'Aus: Die Erklärung bleibt ohne Entscheidung lesbar.'] },
      { key: 'accessibilityLinkEnabled', kind: 'bool', en: ['Accessibility statement link', 'Show a link to the accessibility statement in the banner.'], de: ['Link zur Barrierefreiheitserklärung', 'Im Banner auf die Barrierefreiheitserklärung verlinken.'] },
      { key: 'accessibilityDisplayMode', kind: 'select', options: ['link', 'direct'], en: ['Accessibility statement shown as', 'link: a link to the page; direct: its text inside the banner.'], de: ['Barrierefreiheitserklärung erscheint als', 'link: Link auf die Seite; direct: ihr Text im Banner.'] },
    ],
  },
  {
    en: 'Cookie declaration', de: 'Cookie-Erklärung', fields: [
      { key: 'cookieDeclarationTableHeadingStartLevel', kind: 'number', en: ['First heading level', '2 to 5: the level of the declaration\'s headings on the page (2 = <h2>).'], de: ['Erste Überschriftenebene', '2 bis 5: die Ebene der Überschriften der Erklärung auf der Seite (2 = <h2>).'] },
      { key: 'cookieDeclarationTablePrependIntroText', kind: 'bool', en: ['Banner introduction first', 'The declaration begins with the banner\'s introduction.'], de: ['Einleitung des Banners vorab', 'Die Erklärung beginnt mit der Einleitung des Banners.'] },
      { key: 'cookieDeclarationTablePrependConsentChangeLink', kind: 'bool', en: ['"Change your consent" link first', 'A link that opens the settings precedes the tables.'], de: ['Link „Einwilligung ändern“ vorab', 'Vor den Tabellen steht ein Link, der die Einstellungen öffnet.'] },
    ],
  },
  {
    en: 'IAB TCF', de: 'IAB TCF', fields: [
      { key: 'tcfEnabled', kind: 'bool', en: ['TCF on', 'The IAB Transparency and Consent Framework v2.2 (docs/tcf.md): the TCF banner, __tcfapi and the euconsent-v2 cookie. Needs the instance\'s CMP id (TCF_CMP_ID).'], de: ['TCF an', 'Das IAB Transparency and Consent Framework v2.2 (docs/tcf.md): TCF-Banner, __tcfapi und das Cookie euconsent-v2. Braucht die CMP-ID der Instanz (TCF_CMP_ID).'] },
      { key: 'tcfEnableNewVendorsAfterGvlUpdate', kind: 'bool', en: ['Take new vendors of the vendor list', 'New vendors of the Global Vendor List are offered automatically.'], de: ['Neue Anbieter der Liste übernehmen', 'Neue Anbieter der Global Vendor List werden automatisch angeboten.'] },
      { key: 'tcfVendorBlacklist', kind: 'intlist', en: ['Excluded vendors', 'Vendor numbers, one per line.'], de: ['Ausgeschlossene Anbieter', 'Anbieternummern, eine pro Zeile.'] },
      { key: 'tcfSpecialFeatures', kind: 'intlist', en: ['Special features', 'Numbers, one per line.'], de: ['Sondermerkmale', 'Nummern, eine pro Zeile.'] },
      { key: 'tcfGoogleAdditionalConsentMode', kind: 'bool', en: ['Google Additional Consent Mode', 'For Google ad providers outside the vendor list.'], de: ['Google Additional Consent Mode', 'Für Google-Werbeanbieter außerhalb der Anbieterliste.'] },
      { key: 'tcfGoogleAdditionalConsentAdProviders', kind: 'intlist', en: ['Google ad providers', 'Provider numbers, one per line.'], de: ['Google-Werbeanbieter', 'Anbieternummern, eine pro Zeile.'] },
      { key: 'tcfUrlMacroAutoAppend', kind: 'bool', en: ['Append TCF address macros', 'Add the consent string macros to ad addresses.'], de: ['TCF-Adressmakros anhängen', 'Die Makros des Einwilligungs-Strings an Werbeadressen anhängen.'] },
      { key: 'tcfUrlMacroHandling', kind: 'bool', en: ['Replace TCF address macros', 'Fill ${gdpr} and ${gdpr_consent} in addresses.'], de: ['TCF-Adressmakros ersetzen', '${gdpr} und ${gdpr_consent} in Adressen füllen.'] },
      { key: 'tcfStacks', kind: 'select', options: ['auto', 'off'], en: ['Stacks on the first layer', 'auto: IAB stacks summarise the purposes on the first layer (the fewest that cover the most); off: each purpose listed.'], de: ['Stacks in der ersten Ebene', 'auto: IAB-Stacks fassen die Zwecke in der ersten Ebene zusammen (die wenigsten, die am meisten abdecken); off: jeder Zweck einzeln.'] },
    ],
  },
];

export const DOMAIN_FIELDS: FormField[] = DOMAIN_GROUPS.flatMap((g) => g.fields);
