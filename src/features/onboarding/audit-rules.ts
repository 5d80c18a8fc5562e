import type { Embedding } from '../embeddings/embeddings.schemas.js';
import type { AuditObservation, AuditRequest, AuditStateName } from './audit-crawl.js';
import { presetSourceKey } from './onboarding.repository.js';
import type { AuditViolation } from './onboarding.schemas.js';
import { presetCatalogue, type Preset } from './preset-catalogue.js';
import { wildcardTest, type NamedStorage } from './preset-match.js';

const NECESSARY = '41ba25c';

/** Markers match case-insensitively anywhere in the URL without its scheme (as the catalogue's do). */
const markerIn = (url: string, markers: readonly string[]) => {
  const lower = url.replace(/^https?:\/\//i, '').toLowerCase();
  return markers.find((m) => m !== '' && lower.includes(m.toLowerCase()));
};
const pathOf = (pageUrl: string) => {
  const u = new URL(pageUrl);
  return `${u.pathname}${u.search}`;
};
/**
 * Stylesheets and fonts are not blocked by the widget (docs/widget.md, "What is not blocked"): whatever names
 * their host, the fix is in the page, so these requests get a fix of their own instead of a marker to add.
 */
const STYLE = new Set(['stylesheet', 'font']);
const styleFix = (type: string, host: string, page: string, when: string, target: string) =>
  `${type} from ${host} on ${page} ${when}: the widget blocks scripts and iframes, not stylesheets or fonts, so a <link> or @import in the page ` +
  `loads at once; host these fonts on the site itself (no consent is needed then) or remove them. Loaded by a script (such as Google's ` +
  `Web Font Loader), it is blocked with that script: add the script's URL as a script marker of ${target}`;
/**
 * Images and media are not blocked by the widget either, and most come from the markup (a WordPress comment's Gravatar
 * avatar, a tracking pixel pasted without its <noscript>): a marker alone changes nothing for them. A script that
 * makes one (`new Image()`) cannot be told apart here: Chromium reports the document as the initiator of both.
 */
const MEDIA = new Set(['image', 'media']);
const mediaFix = (type: string, host: string, page: string, when: string, target: string | undefined) =>
  `${type} from ${host} on ${page} ${when}: the widget blocks scripts and iframes, not images or media, so an <img>, <video> or ` +
  `<audio> in the page loads at once (a WordPress comment's Gravatar avatar, a tracking pixel pasted without its <noscript>); remove ` +
  `it or serve it from the site itself, or switch on strictBlocking, whose policy refuses it${target ? ` with ${target}` : ''}. ` +
  (target
    ? `Sent by a script (new Image()), it is blocked with that script: add the script's URL as a script marker of ${target}`
    : `If the site needs it and it needs no consent (the site's own image host), declare ${host} in a technically necessary embedding; ` +
      `if a script sends it, add that script's URL as a script marker of the service's embedding`);

/**
 * A request the site's own script made by code (an SDK compiled into the site's JavaScript): the widget sees no element
 * to block, and a marker on the site's script would block all of it (docs/widget.md, "Trackers compiled into the site's
 * own JavaScript").
 */
const BUNDLED =
  'a tracker compiled into the site\'s JavaScript (an SDK installed from npm) has no element the widget can block, and a marker on ' +
  'that script would block all of it: switch on strictBlocking, whose policy refuses the requests to the embedding\'s hosts, or start ' +
  'the SDK from the decision (CCM.acceptedEmbeddings and the ccm19EmbeddingAccepted event; docs/widget.md, "Trackers compiled into ' +
  'the site\'s own JavaScript")';

/** Whether two addresses have the same host (the site's own script, on the page's host). */
const sameHost = (a: string, b: string) => {
  try {
    return new URL(a).host === new URL(b).host;
  } catch {
    return false;
  }
};

/** A script above the snippet: the fix is the snippet's place, not a marker (docs/widget.md, "Embedding"). */
const PLACEMENT =
  'a script above the Placet snippet may run before the widget can block it (one that has not loaded when the widget starts is stopped, ' +
  'so it can pass on one visit and run on the next): print the snippet first in <head> (on WordPress, hook wp_head at a priority below 1, ' +
  'not the default 10, which comes after the enqueued head scripts)';
const ref = (e: { id: string; name: string } | undefined) => (e ? { id: e.id, name: e.name } : null);
const presetRef = (p: Preset | undefined) => (p ? { id: p.id, name: p.name } : null);

/**
 * What the domain's configuration says about a request or a storage write, and what to change when it
 * happened before consent or after "decline". Allowed are only the items of active, technically necessary
 * embeddings (unless the domain requires consent for those too).
 */
/** How a fix names the state it was found in. */
const WHEN: Record<Exclude<AuditStateName, 'afterAcceptAll'>, string> = {
  beforeDecision: 'before consent',
  afterDecline: 'after "decline"',
  placetUnreachable: 'while Placet could not be reached',
};

export class AuditRules {
  private readonly active: Embedding[];
  private readonly inactive: Embedding[];
  private readonly byPreset = new Map<number, Embedding>();

  constructor(
    embeddings: readonly Embedding[],
    links: ReadonlyMap<string, string>,
    private readonly mandatoryNeedsConsent: boolean,
  ) {
    this.active = embeddings.filter((e) => e.active);
    this.inactive = embeddings.filter((e) => !e.active);
    for (const preset of presetCatalogue().presets) {
      const id = links.get(presetSourceKey(preset.id));
      const linked = embeddings.find((e) => e.id === id) ?? embeddings.find((e) => e.name === preset.texts.en.name);
      if (linked) this.byPreset.set(preset.id, linked);
    }
  }

  private needsConsent = (e: Embedding) => e.purpose !== NECESSARY || this.mandatoryNeedsConsent;

  /** A warning that names a page's scripts above the snippet that need consent (scriptsNeedingConsent), or undefined. */
  placement(pageUrl: string, early: readonly string[]): string | undefined {
    if (early.length === 0) return undefined;
    const named = early.slice(0, 5).map((s) => (/^(https?:)?\/\//i.test(s) ? s : `inline script "${s.replace(/\s+/g, ' ').slice(0, 60)}…"`));
    const more = early.length > 5 ? ` and ${early.length - 5} more` : '';
    return `${pathOf(pageUrl)}: ${early.length} script(s) that need consent come before the Placet snippet (${named.join(', ')}${more}); ${PLACEMENT}`;
  }

  /** Of a page's scripts above the snippet, those that need consent: an embedding's or a preset's script marker matches them. */
  scriptsNeedingConsent(scripts: readonly string[]): string[] {
    return scripts.filter((s) => {
      const owner = this.active.find((e) => markerIn(s, e.scriptMarkers)) ?? this.inactive.find((e) => markerIn(s, e.scriptMarkers));
      if (owner) return this.needsConsent(owner);
      const preset = this.presetFor(s, false)?.preset;
      return preset !== undefined && preset.purpose !== NECESSARY;
    });
  }

  /** `early`: the page's scripts above the snippet that need consent (scriptsNeedingConsent). */
  violations(pageUrl: string, state: Exclude<AuditStateName, 'afterAcceptAll'>, o: AuditObservation, early: ReadonlySet<string> = new Set()): AuditViolation[] {
    const found: AuditViolation[] = [];
    const when = WHEN[state];
    const frames = new Set(o.requests.filter((r) => r.resourceType === 'document').map((r) => r.url));
    for (const request of o.requests) {
      // What a leaking iframe loads inside itself is fixed with the iframe.
      if (request.frame !== undefined && frames.has(request.frame)) continue;
      const v = this.request(pageUrl, request, when, early.has(request.url));
      if (v) found.push({ page: pageUrl, state, kind: 'request', value: request.url, resourceType: request.resourceType, ...v });
    }
    for (const [kind, list] of [['cookie', o.cookies], ['localStorage', o.localStorage], ['sessionStorage', o.sessionStorage]] as const) {
      for (const item of list) {
        const v = this.write(pageUrl, item.name, kind, when);
        if (v) found.push({ page: pageUrl, state, kind, value: item.name, resourceType: null, ...v });
      }
    }
    return found;
  }

  private request(pageUrl: string, request: AuditRequest, when: string, aboveSnippet: boolean): Omit<AuditViolation, 'page' | 'state' | 'kind' | 'value' | 'resourceType'> | undefined {
    const page = pathOf(pageUrl);
    const host = new URL(request.url).host;
    const frame = request.resourceType === 'document';
    const markersOf = (e: Embedding) => (frame ? e.iframeMarkers : e.scriptMarkers);
    const owner = this.active.find((e) => markerIn(request.url, markersOf(e)));
    if (owner && !this.needsConsent(owner)) return undefined;
    const preset = this.presetFor(request.url, frame);
    const dormant = owner ? undefined : this.inactive.find((e) => markerIn(request.url, markersOf(e)));
    // The embedding a fix about the page (not about markers) names.
    const claimed = owner ?? dormant ?? (preset && this.byPreset.get(preset.preset.id));
    if (STYLE.has(request.resourceType)) {
      const target = claimed
        ? `embedding ${claimed.name}${claimed.active ? '' : ', and activate it (inactive embeddings block nothing)'}`
        : preset
          ? `the embedding of preset ${preset.preset.name} (POST …/onboarding/presets [{ "id": ${preset.preset.id} }])`
          : 'the embedding of this service';
      return { embedding: ref(claimed), preset: presetRef(preset?.preset), fix: styleFix(request.resourceType, host, page, when, target) };
    }
    if (MEDIA.has(request.resourceType)) {
      const target = claimed
        ? `embedding ${claimed.name}${claimed.active ? '' : ', and activate it (inactive embeddings block nothing)'}`
        : preset
          ? `the embedding of preset ${preset.preset.name} (POST …/onboarding/presets [{ "id": ${preset.preset.id} }])`
          : undefined;
      return { embedding: ref(claimed), preset: presetRef(preset?.preset), fix: mediaFix(request.resourceType, host, page, when, target) };
    }
    if (aboveSnippet && request.resourceType === 'script') {
      return { embedding: ref(claimed), preset: presetRef(preset?.preset), fix: `script from ${host} on ${page}: ${PLACEMENT}` };
    }
    // A request the site's own script made by code: a tracker compiled into the site's JavaScript (docs/widget.md,
    // "Trackers compiled into the site's own JavaScript"), where a marker on that script would block the whole site.
    const by = request.initiator;
    const own = by !== undefined && sameHost(by, pageUrl);
    const bundled = own ? `; it was sent by the site's own script ${by}, ${BUNDLED}` : '';
    if (owner) {
      const fix = frame
        ? `iframe on ${page}: use data-ccm-src instead of src (the browser requests an iframe's src before any script can block it)`
        : request.resourceType === 'script'
          ? `script from ${host} on ${page}: it is in the HTML as <script src>, which the browser fetches before the widget blocks it; write it as <script type="text/x-ccm-loader" data-ccm-loader-src="…"> or let a tag manager embedding insert it`
          : own
            ? `${request.resourceType} request to ${host} (embedding ${owner.name}) on ${page} ${when}, sent by the site's own script ${by}: ${BUNDLED}`
            : `${request.resourceType} request to ${host} on ${page} ${when}: a script of embedding ${owner.name} ran${by ? ` (${by})` : ''}; add that script's URL as a script marker of ${owner.name}`;
      return { embedding: ref(owner), preset: presetRef(preset?.preset), fix };
    }
    if (dormant) {
      return { embedding: ref(dormant), preset: presetRef(preset?.preset), fix: `activate embedding ${dormant.name}: inactive embeddings block nothing` };
    }
    const markup = frame ? `iframe on ${page}: use data-ccm-src instead of src; ` : '';
    const what = frame ? 'iframe marker' : 'script marker';
    if (preset) {
      const embedding = this.byPreset.get(preset.preset.id);
      if (embedding) {
        return { embedding: ref(embedding), preset: presetRef(preset.preset), fix: `${markup}add ${what} ${preset.marker} to embedding ${embedding.name}${bundled}` };
      }
      return {
        embedding: null,
        preset: presetRef(preset.preset),
        fix: `${markup}import preset ${preset.preset.name} (POST …/onboarding/presets [{ "id": ${preset.preset.id} }]), whose ${what}s include ${preset.marker}${bundled}`,
      };
    }
    return {
      embedding: null,
      preset: null,
      fix: request.resourceType === 'script' || frame
        ? `${markup}no embedding names ${host}: add ${what} ${host} to the embedding of this service (or create one)`
        : own
          ? `${request.resourceType} request to ${host} on ${page} ${when}, sent by the site's own script ${by}: add ${host} as a script marker of the embedding of this service (or create one), then: ${BUNDLED}`
          : `${request.resourceType} request to ${host} on ${page} ${when}, from a script no embedding blocks${by ? ` (${by})` : ''}: ${by ? 'add its URL' : "find that script (see the page's other requests) and add its URL"} as a script marker of an embedding, or declare ${host} in a technically necessary embedding if it is one`,
    };
  }

  private write(pageUrl: string, name: string, kind: NamedStorage, when: string): Omit<AuditViolation, 'page' | 'state' | 'kind' | 'value' | 'resourceType'> | undefined {
    const declares = (e: Embedding) => e.assets.some((a) => (a.storageType ?? 'cookie') === kind && wildcardTest(a.name)(name));
    const owner = this.active.find(declares);
    if (owner && !this.needsConsent(owner)) return undefined;
    const preset = presetCatalogue().matcher.bestFor(name, kind);
    const label = kind === 'cookie' ? `cookie ${name}` : `${kind} key ${name}`;
    if (owner) {
      return {
        embedding: ref(owner),
        preset: presetRef(preset),
        fix: `${label} of embedding ${owner.name} was written on ${pathOf(pageUrl)} ${when}: the script that writes it was not blocked; make its URL a script marker of ${owner.name} (see the page's requests)`,
      };
    }
    const dormant = this.inactive.find(declares);
    if (dormant) return { embedding: ref(dormant), preset: presetRef(preset), fix: `activate embedding ${dormant.name}: inactive embeddings block nothing` };
    const embedding = preset ? this.byPreset.get(preset.id) : undefined;
    if (embedding) {
      return {
        embedding: ref(embedding),
        preset: presetRef(preset),
        fix: `${label} belongs to ${embedding.name}, whose markers did not block the script that writes it: add the script's URL as a script marker of ${embedding.name}`,
      };
    }
    if (preset) {
      return { embedding: null, preset: presetRef(preset), fix: `${label} belongs to preset ${preset.name}: import it (POST …/onboarding/presets [{ "id": ${preset.id} }])` };
    }
    return {
      embedding: null,
      preset: null,
      fix: `${label} is declared by no embedding: declare it (POST …/onboarding/embeddingsFromCookies), in a technically necessary embedding if it is one, and block the script that writes it otherwise`,
    };
  }

  private presetFor(url: string, frame: boolean): { preset: Preset; marker: string } | undefined {
    for (const preset of presetCatalogue().presets) {
      const marker = markerIn(url, frame ? preset.iframeMarkers : preset.scriptMarkers);
      if (marker) return { preset, marker };
    }
    return undefined;
  }
}

/**
 * What a page's Content-Security-Policy refused after "accept all", one warning per host: in strict mode that is a
 * host no embedding and no `strictAllowedHosts` entry names, which the site can never load (docs/widget.md, "Strict
 * mode"); the site's own policy may refuse things too.
 */
export function refusedAfterAcceptAll(pageUrl: string, refused: readonly AuditRequest[]): string[] {
  const byHost = new Map<string, Set<string>>();
  for (const r of refused) {
    const host = new URL(r.url).hostname;
    byHost.set(host, (byHost.get(host) ?? new Set()).add(r.resourceType));
  }
  return [...byHost].map(
    ([host, types]) =>
      `${pathOf(pageUrl)}: after "accept all" the page's Content-Security-Policy refused ${[...types].join(', ')} from ${host}, ` +
      `so the site cannot load it whatever the visitor decides; if the site needs it, add ${host} to strictAllowedHosts ` +
      "(or as a marker to the embedding it belongs to) and paste the new snippet (in strict mode; a policy of the site's own is the site's to change)",
  );
}
