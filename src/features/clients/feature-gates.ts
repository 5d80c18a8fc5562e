import { isDeepStrictEqual } from 'node:util';
import { AppError, type ErrorDetail } from '../../errors.js';
import type { DomainSettings } from '../domains/domains.schemas.js';
import type { EmbeddingSettings } from '../embeddings/embeddings.schemas.js';
import type { ThemeSettings } from '../themes/themes.schemas.js';
import type { FeatureFlag, Features } from './clients.schemas.js';

/**
 * What each client feature flag gates on the Hosting API (README "Feature flags" says the same for people).
 * A write that would change a gated field while the client lacks its flag is refused with
 * 403 FEATURE_NOT_AVAILABLE, one detail per field naming the flag. What is already stored keeps working.
 *
 * Two kinds of gate, because a flag must never switch blocking off (docs/widget.md, "Fail closed"):
 * - `content` gates (logo, CSS, consent sharing, IAB) always allow switching the feature's setting off
 *   (`false`, `""`, `[]`, `null`): that uses nothing.
 * - `blocking` gates (scripts, iframes) refuse every change except one that only blocks more
 *   (`STRICTER`): emptying a marker list or turning the iframe blocker off would let a tracker run.
 */
interface Gate<T> {
  flag: FeatureFlag;
  kind: 'content' | 'blocking';
  fields: readonly (keyof T & string)[];
}

/** Values of blocking settings that only ever block more, so they stay allowed without the flag. */
const STRICTER: Record<string, unknown> = {
  blockIframes: true,
  blockNewScripts: true,
  blockFirstPartyScripts: true,
  blockInlineScripts: true,
  evalInlineScripts: false,
};

export const DOMAIN_GATES: readonly Gate<DomainSettings>[] = [
  { flag: 'canUseConsentSharing', kind: 'content', fields: ['consentSharingDomains', 'consentSharingCrossDomain'] },
  {
    flag: 'canUseIAB',
    kind: 'content',
    fields: [
      'tcfEnabled', 'tcfEnableNewVendorsAfterGvlUpdate', 'tcfVendorBlacklist', 'tcfSpecialFeatures',
      'tcfGoogleAdditionalConsentMode', 'tcfGoogleAdditionalConsentAdProviders', 'tcfUrlMacroAutoAppend',
      'tcfUrlMacroHandling', 'tcfStacks', 'tcfPublisherRestrictions',
    ],
  },
  {
    flag: 'canUseScripts',
    kind: 'blocking',
    fields: [
      'allowedScriptMarkers', 'blockedScriptMarkers', 'evalInlineScripts', 'blockNewScripts',
      'blockFirstPartyScripts', 'blockInlineScripts',
    ],
  },
  {
    flag: 'canUseIframes',
    kind: 'blocking',
    fields: ['blockIframes', 'iframeBlockMode', 'iframeMarkers', 'rememberIframeConsentPerDomain', 'appendConsentSwitchToIframes'],
  },
];

export const EMBEDDING_GATES: readonly Gate<EmbeddingSettings>[] = [
  { flag: 'canUseIAB', kind: 'content', fields: ['tcfVendor', 'tcfPurposes', 'tcfSpecialFeatures'] },
  { flag: 'canUseScripts', kind: 'blocking', fields: ['scriptMarkers', 'scriptHtmlCode', 'scriptLoaderGroup'] },
  { flag: 'canUseIframes', kind: 'blocking', fields: ['iframeMarkers', 'hideIframesUntilConsent'] },
];

export const THEME_GATES: readonly Gate<ThemeSettings>[] = [
  { flag: 'canUseOwnLogo', kind: 'content', fields: ['logoEnabled', 'logoImage'] },
  { flag: 'canUseIndCSS', kind: 'content', fields: ['customCss'] },
  { flag: 'canUseIframeCSS', kind: 'content', fields: ['customCssForIframeBlocker'] },
];

const isOff = (value: unknown) =>
  value === false || value === '' || value === null || (Array.isArray(value) && value.length === 0);

/** The detail of one refused field: which flag it needs. */
export const featureDetail = (field: string, flag: FeatureFlag): ErrorDetail => ({
  field,
  flag,
  message: `needs the client feature ${flag}, which is off for this client`,
});

/**
 * Throws FEATURE_NOT_AVAILABLE when `after` changes a field of `before` that a flag the client lacks gates
 * (create: `before` is the defaults). Every refused field is listed at once.
 */
export function assertFeatureUse<T extends object>(
  features: Features,
  gates: readonly Gate<T>[],
  before: T,
  after: T,
  prefix = 'body',
): void {
  const details: ErrorDetail[] = [];
  for (const gate of gates) {
    if (features[gate.flag]) continue;
    for (const field of gate.fields) {
      const next = after[field];
      if (isDeepStrictEqual(before[field], next)) continue;
      if (gate.kind === 'content' ? isOff(next) : field in STRICTER && STRICTER[field] === next) continue;
      details.push(featureDetail(`${prefix}.${field}`, gate.flag));
    }
  }
  if (details.length > 0) throw new AppError('FEATURE_NOT_AVAILABLE', details);
}

/** A single flag the operation needs as a whole (the Domain API, a second domain, a third language). */
export function requireFeature(features: Features, flag: FeatureFlag, field: string): void {
  if (!features[flag]) throw new AppError('FEATURE_NOT_AVAILABLE', [featureDetail(field, flag)]);
}

/** The most active locales a domain may have without `moreThan2Lang`. */
export const LOCALES_WITHOUT_MORE_THAN_2_LANG = 2;
