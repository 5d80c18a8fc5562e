import { Type, type Static } from 'typebox';
import { IntList, Nullable, StringEnum, StringList } from '../../schemas/common.js';

const markerList = StringList(200, 500);
const bool = Type.Boolean();

/**
 * Every Domain field of reference-model §2.5 except name/path/whitelabel, which have columns. One
 * definition yields the write schema (all optional), the read schema (all present) and the defaults.
 */
export const DomainSettingsSchema = Type.Object({
  country: Nullable(
    Type.String({ pattern: '^[A-Z]{2}$', description: 'an ISO 3166-1 alpha-2 code such as DE, or ZZ for unknown' }),
  ),
  consentStorage: StringEnum(['cookie', 'localStorage', 'sessionStorage'] as const),
  consentCookieLifetime: Type.Integer({ minimum: 0, maximum: 3650, description: 'days; 0 = until the browser closes' }),
  consentCookieSecure: bool,
  consentResetBeforeDate: Nullable(
    Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', description: 'a date YYYY-MM-DD' }),
  ),
  consentResetOnLegalChange: bool,
  consentSharingDomains: Type.Array(
    Type.String({
      minLength: 1,
      maxLength: 253,
      pattern: '^\\.?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$',
      description: 'a host name such as example.com (no scheme, port or path); it and its subdomains share the consent',
    }),
    { maxItems: 50 },
  ),
  consentSharingCrossDomain: bool,
  frontendWidgetEnabled: bool,
  frontendWidgetCache: bool,
  frontendWidgetMinifyCode: bool,
  managementStructure: StringEnum(['cookie', 'embedding'] as const),
  deleteUnknownCookies: bool,
  deleteUnknownCookiesForceReload: bool,
  requireConsentForMandatoryEmbeddings: bool,
  declineButtonEnforced: bool,
  allowedScriptMarkers: markerList,
  blockedScriptMarkers: markerList,
  evalInlineScripts: bool,
  recordScriptsOnWebsite: bool,
  blockNewScripts: bool,
  blockFirstPartyScripts: bool,
  blockInlineScripts: bool,
  permanentScanEnabled: bool,
  tcfEnabled: bool,
  tcfEnableNewVendorsAfterGvlUpdate: bool,
  tcfVendorBlacklist: IntList(2000),
  tcfSpecialFeatures: IntList(50),
  tcfGoogleAdditionalConsentMode: bool,
  tcfGoogleAdditionalConsentAdProviders: IntList(2000),
  tcfUrlMacroAutoAppend: bool,
  tcfUrlMacroHandling: bool,
  tcfStacks: StringEnum(['auto', 'off'] as const, {
    description: 'auto: the TCF first layer summarises purposes and special features with the fewest IAB stacks that cover the most of them (docs/tcf.md); off: each one listed',
  }),
  tcfPublisherRestrictions: Type.Array(
    Type.Object({
      vendorId: Type.Integer({ minimum: 1, maximum: 65535, description: 'GVL vendor id' }),
      purposeId: Type.Integer({ minimum: 1, maximum: 11, description: 'TCF purpose id' }),
      restrictionType: StringEnum(['notAllowed', 'requireConsent', 'requireLegitimateInterest'] as const),
    }, { additionalProperties: false }),
    { maxItems: 2000, description: 'TCF publisher restrictions, encoded in the TC string; checked against the GVL (docs/tcf.md)' },
  ),
  blockIframes: bool,
  rememberIframeConsentPerDomain: bool,
  appendConsentSwitchToIframes: bool,
  iframeBlockMode: StringEnum(['blacklist', 'whitelist'] as const),
  iframeMarkers: markerList,
  useAccountTheme: Type.Boolean({
    description:
      'Placet extension (docs/account.md): true uses an account theme distributed to this domain instead of its ' +
      'default theme; false keeps the domain\'s own',
  }),
  strictBlocking: Type.Boolean({
    description:
      'Placet extension (docs/widget.md "Strict mode"): the embed snippet carries a Content-Security-Policy per ' +
      'embedding, so no request to a blocked embedding\'s hosts leaves the browser before consent, even for ' +
      '<script src>, <iframe src>, stylesheets, fonts and images in the HTML; third-party hosts that no embedding and ' +
      'no strictAllowedHosts entry names are refused whatever the visitor decides; the page reloads once when such an embedding is accepted. ' +
      'Re-paste the snippet after changing embeddings.',
  }),
  strictAllowedHosts: Type.Array(
    Type.String({
      minLength: 1,
      maxLength: 253,
      pattern: '^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$',
      description: 'a host name such as cdn.example.com; it and its subdomains may serve anything (scripts, frames, stylesheets, fonts, images, fetch) in strict mode',
    }),
    {
      maxItems: 100,
      description:
        'Third-party hosts the site needs that no embedding names: allowed by strict mode, and by the fallback of every embed snippet ' +
        'that refuses all other third-party requests when the widget cannot be loaded (docs/widget.md "Placet unreachable"). Re-paste the snippet after changing it.',
    },
  ),
  cookieDeclarationTableHeadingStartLevel: Type.Integer({ minimum: 2, maximum: 5 }),
  cookieDeclarationTablePrependConsentChangeLink: bool,
  cookieDeclarationTablePrependIntroText: bool,
  imprintDisplayMode: StringEnum(['direct', 'link'] as const),
  imprintOpenInNewTab: bool,
  imprintShowWidget: bool,
  privacyPolicyDisplayMode: StringEnum(['direct', 'link'] as const),
  privacyPolicyOpenInNewTab: bool,
  privacyPolicyShowWidget: bool,
  accessibilityDisplayMode: StringEnum(['direct', 'link'] as const),
  accessibilityLinkEnabled: bool,
  offerBuiltinLanguages: Type.Boolean({
    description:
      'Placet extension (README "Languages offered"): true offers, beside the domain\'s active locales, Placet\'s ' +
      'built-in texts in the visitor\'s preferred language when the domain has no locale of it (legal links and ' +
      'HTML come from the default locale); false offers only the domain\'s locales (a domain without any still ' +
      'gets the built-in language the browser prefers)',
  }),
});
export type DomainSettings = Static<typeof DomainSettingsSchema>;

/** Defaults, where the spec is silent chosen for a privacy-by-default, compliant banner (see README). */
export const DOMAIN_DEFAULTS: DomainSettings = {
  country: null,
  consentStorage: 'localStorage',
  consentCookieLifetime: 365,
  consentCookieSecure: true,
  consentResetBeforeDate: null,
  consentResetOnLegalChange: true,
  consentSharingDomains: [],
  consentSharingCrossDomain: false,
  frontendWidgetEnabled: true,
  frontendWidgetCache: true,
  frontendWidgetMinifyCode: true,
  managementStructure: 'embedding',
  deleteUnknownCookies: false,
  deleteUnknownCookiesForceReload: false,
  requireConsentForMandatoryEmbeddings: false,
  declineButtonEnforced: true,
  allowedScriptMarkers: [],
  blockedScriptMarkers: [],
  evalInlineScripts: false,
  recordScriptsOnWebsite: false,
  blockNewScripts: false,
  blockFirstPartyScripts: false,
  blockInlineScripts: false,
  permanentScanEnabled: false,
  tcfEnabled: false,
  tcfEnableNewVendorsAfterGvlUpdate: false,
  tcfVendorBlacklist: [],
  tcfSpecialFeatures: [],
  tcfGoogleAdditionalConsentMode: false,
  tcfGoogleAdditionalConsentAdProviders: [],
  tcfUrlMacroAutoAppend: false,
  tcfUrlMacroHandling: false,
  tcfStacks: 'auto',
  tcfPublisherRestrictions: [],
  blockIframes: true,
  rememberIframeConsentPerDomain: false,
  appendConsentSwitchToIframes: false,
  iframeBlockMode: 'whitelist',
  iframeMarkers: [],
  useAccountTheme: true,
  strictBlocking: false,
  strictAllowedHosts: [],
  cookieDeclarationTableHeadingStartLevel: 3,
  cookieDeclarationTablePrependConsentChangeLink: true,
  cookieDeclarationTablePrependIntroText: true,
  imprintDisplayMode: 'link',
  imprintOpenInNewTab: false,
  imprintShowWidget: false,
  privacyPolicyDisplayMode: 'link',
  privacyPolicyOpenInNewTab: false,
  privacyPolicyShowWidget: false,
  accessibilityDisplayMode: 'link',
  accessibilityLinkEnabled: false,
  offerBuiltinLanguages: true,
};

const DomainName = Type.String({
  minLength: 1,
  maxLength: 500,
  description: 'host, host:port or URL, e.g. www.site.tld, https://www.site.tld/shop/, site.tld:8443',
});

export const CreateDomainBody = Type.Object(
  {
    id: Type.Optional(
      Type.String({
        pattern: '^[0-9a-f]{7}$',
        description:
          'Optional id to keep (7 lowercase hex characters, unique across all domains), e.g. the one a site moved ' +
          'from the established product already carries in its snippet. Omitted: a new random id. Set on create only.',
      }),
    ),
    name: DomainName,
    whitelabel: Type.Optional(Type.Boolean()),
    ...Type.Partial(DomainSettingsSchema).properties,
  },
  { additionalProperties: false },
);
export type CreateDomain = Static<typeof CreateDomainBody>;

/** The id is set on create only: PUT drops it like any read-only field. */
export const UpdateDomainBody = Type.Partial(Type.Omit(CreateDomainBody, ['id']), { additionalProperties: false });
export type UpdateDomain = Static<typeof UpdateDomainBody>;

export const DomainSchema = Type.Object({
  id: Type.String({ description: '7 lowercase hex characters' }),
  name: Type.String({ description: 'host name, with the port when one was given' }),
  path: Type.String({ description: 'path part of the name given on create; default /' }),
  whitelabel: Type.Boolean(),
  ...DomainSettingsSchema.properties,
});
export type Domain = Static<typeof DomainSchema>;
