import type { FormField } from './form-fields.js';

/** A theme's fields (Hosting API `Theme`) except name, default and the two images, grouped as the editor shows them. */
export const THEME_LAYOUT_FIELDS: FormField[] = [
  { key: 'widgetPosition', kind: 'select', options: ['bottom', 'top', 'center', 'bottomleft', 'bottomright'], en: ['Position', 'Where the banner appears on the page.'], de: ['Position', 'Wo das Banner auf der Seite erscheint.'] },
  { key: 'widgetButtons', kind: 'multi', options: ['accept', 'decline', 'cpanel'], en: ['Buttons on the banner', 'accept all, decline all, and settings (cpanel).'], de: ['Knöpfe im Banner', 'Alle akzeptieren, alle ablehnen und Einstellungen (cpanel).'] },
  { key: 'widgetBlocking', kind: 'bool', en: ['Block the page until a decision', 'The page is dimmed and cannot be used before the visitor decides.'], de: ['Seite bis zur Entscheidung sperren', 'Die Seite ist abgedunkelt und erst nach der Entscheidung nutzbar.'] },
  { key: 'widgetCloseButton', kind: 'bool', en: ['Close button', 'Closes the banner for the tab without storing anything (only necessary embeddings run).'], de: ['Schließen-Knopf', 'Schließt das Banner für den Tab, ohne etwas zu speichern (nur Notwendiges läuft).'] },
  { key: 'widgetSwitchType', kind: 'select', options: ['switch', 'checkbox'], en: ['Choice controls', 'Switches or checkboxes in the settings.'], de: ['Auswahlelemente', 'Schalter oder Kästchen in den Einstellungen.'] },
  { key: 'showPurposesInMainWindow', kind: 'bool', en: ['Purposes on the banner', 'The purposes can be chosen on the first layer already.'], de: ['Zwecke im Banner', 'Die Zwecke sind schon auf der ersten Ebene wählbar.'] },
  { key: 'settingsAcceptAllButton', kind: 'bool', en: ['Accept-all in the settings', 'The settings layer has an accept-all button too.'], de: ['„Alle akzeptieren“ in den Einstellungen', 'Auch die Einstellungsebene hat diesen Knopf.'] },
  { key: 'settingsCheckAndUncheckAllButtons', kind: 'bool', en: ['Select-all and deselect-all', 'Buttons in the settings that switch every choice.'], de: ['Alle aus- und abwählen', 'Knöpfe in den Einstellungen, die jede Auswahl umschalten.'] },
  { key: 'settingsFooter', kind: 'bool', en: ['Footer in the settings', 'Legal links at the foot of the settings layer.'], de: ['Fußzeile in den Einstellungen', 'Rechtliche Links am Fuß der Einstellungsebene.'] },
  { key: 'settingsIconEnabled', kind: 'bool', en: ['Settings icon', 'After a decision, a small round button reopens the settings.'], de: ['Einstellungs-Symbol', 'Nach der Entscheidung öffnet ein kleiner runder Knopf die Einstellungen wieder.'] },
  { key: 'settingsIconTarget', kind: 'select', options: ['purpose', 'main'], en: ['Settings icon opens', 'purpose: the settings layer; main: the banner.'], de: ['Einstellungs-Symbol öffnet', 'purpose: die Einstellungsebene; main: das Banner.'] },
  { key: 'logoEnabled', kind: 'bool', en: ['Show the logo', 'The logo saved with the theme (upload it through the Hosting API).'], de: ['Logo zeigen', 'Das mit dem Theme gespeicherte Logo (Hochladen über die Hosting-API).'] },
  { key: 'whitelabel', kind: 'bool', en: ['White label', 'No Placet branding in the banner.'], de: ['White Label', 'Kein Placet-Hinweis im Banner.'] },
];

export const THEME_BEHAVIOUR_FIELDS: FormField[] = [
  { key: 'manipulationPrevention', kind: 'bool', en: ['Manipulation prevention', 'Recorded with each decision in the consent log (the manipulationPrevention flag).'], de: ['Manipulationsschutz', 'Wird mit jeder Entscheidung im Einwilligungsprotokoll vermerkt (Merkmal manipulationPrevention).'] },
  { key: 'complyWithDoNotTrack', kind: 'bool', en: ['Honour Do Not Track', 'A browser that sends DNT counts as "declined" and sees no banner.'], de: ['Do Not Track beachten', 'Ein Browser mit DNT gilt als „abgelehnt“ und sieht kein Banner.'] },
  { key: 'enableOnlyInEu', kind: 'bool', en: ['Only in the EU', 'Visitors from outside the EU/EEA, UK and Switzerland get no banner (needs COUNTRY_HEADER).'], de: ['Nur in der EU', 'Besucher außerhalb von EU/EWR, Vereinigtem Königreich und Schweiz sehen kein Banner (braucht COUNTRY_HEADER).'] },
];

/** The 17 colours, with their label. */
export const THEME_COLORS: [key: string, en: string, de: string][] = [
  ['windowBackgroundColor', 'Window background', 'Fensterhintergrund'],
  ['windowForegroundColor', 'Window text', 'Fenstertext'],
  ['windowLinkColor', 'Window links', 'Fensterlinks'],
  ['windowBorderColor', 'Window border', 'Fensterrahmen'],
  ['primaryButtonBackgroundColor', 'Accept button', 'Zustimmen-Knopf'],
  ['primaryButtonForegroundColor', 'Accept button text', 'Zustimmen-Knopf: Text'],
  ['primaryButtonBorderColor', 'Accept button border', 'Zustimmen-Knopf: Rahmen'],
  ['declineButtonBackgroundColor', 'Decline button', 'Ablehnen-Knopf'],
  ['declineButtonForegroundColor', 'Decline button text', 'Ablehnen-Knopf: Text'],
  ['declineButtonBorderColor', 'Decline button border', 'Ablehnen-Knopf: Rahmen'],
  ['buttonBackgroundColor', 'Other buttons', 'Weitere Knöpfe'],
  ['buttonForegroundColor', 'Other buttons: text', 'Weitere Knöpfe: Text'],
  ['buttonBorderColor', 'Other buttons: border', 'Weitere Knöpfe: Rahmen'],
  ['iframeBlockerBackgroundColor', 'Blocked iframe background', 'Blockiertes Iframe: Hintergrund'],
  ['iframeBlockerForegroundColor', 'Blocked iframe text', 'Blockiertes Iframe: Text'],
  ['iframeBlockerButtonBackgroundColor', 'Blocked iframe button', 'Blockiertes Iframe: Knopf'],
  ['iframeBlockerButtonForegroundColor', 'Blocked iframe button text', 'Blockiertes Iframe: Knopftext'],
];

export const THEME_CSS_FIELDS: FormField[] = [
  { key: 'customCss', kind: 'textarea', en: ['Extra CSS for the banner', 'Applied inside the banner\'s shadow root; its root element has the class ccm-root.'], de: ['Zusätzliches CSS für das Banner', 'Gilt im Shadow Root des Banners; sein Wurzelelement hat die Klasse ccm-root.'] },
  { key: 'customCssForIframeBlocker', kind: 'textarea', en: ['Extra CSS for blocked iframes', 'Applied to the overlay over a blocked iframe.'], de: ['Zusätzliches CSS für blockierte Iframes', 'Gilt für den Hinweis über einem blockierten Iframe.'] },
];
