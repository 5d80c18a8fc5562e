import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { type BrowserApp, hostingCall, type Site, startBrowserApp } from './browser.js';
import { acceptOnlyPurpose, CATALOGUE, matches, type Opened, presetDomain, STAND_IN_PAGE } from './real-snippets-common.js';

/**
 * More vendors' real tag snippets, as test/real-snippets.browser.test.ts runs GA4, GTM, Meta, YouTube, Vimeo and
 * Google Maps: each snippet as the vendor hands it out (only ids replaced by placeholders), including the
 * regional and variant forms real sites use (HubSpot's EU data centre, Matomo Cloud and self-hosted, reCAPTCHA
 * through recaptcha.net), on one page with the widget, in headless Chromium, with the embeddings imported from
 * Placet's preset catalogue (data/presets.json) through the Hosting API. Every vendor host is answered by a
 * stand-in through a Playwright route that records the request: a stand-in script sets `window.__ran_<vendor>`
 * (and, for the embed loaders, builds the frame the real one builds), a stand-in frame page fetches `/__ran`
 * from its own host. Loaders that build their script's address from parts (Hotjar, TikTok, Matomo, …) are
 * blocked by their inline text; the addresses they would request are listed, so the test sees whether they ran.
 */
const KEY = 'real-snippets-more-hosting-key-0123456789';

// Hotjar: Settings → Tracking → "Hotjar tracking code".
const HOTJAR = `<!-- Hotjar Tracking Code for https://www.example.com -->
<script>
    (function(h,o,t,j,a,r){
        h.hj=h.hj||function(){(h.hj.q=h.hj.q||[]).push(arguments)};
        h._hjSettings={hjid:1234567,hjsv:6};
        a=o.getElementsByTagName('head')[0];
        r=o.createElement('script');r.async=1;
        r.src=t+h._hjSettings.hjid+j+h._hjSettings.hjsv;
        a.appendChild(r);
    })(window,document,'https://static.hotjar.com/c/hotjar-','.js?sv=');
</script>`;

// Hotjar's tracking code for sites set up since 2025 (Hotjar is part of Contentsquare): the same loader, its script
// now from Contentsquare's host. The catalogue's Hotjar markers named only hotjar.com hosts, so it ran before consent.
const HOTJAR_CSQ = `<script>
    (function (c, s, q, u, a, r, e) {
        c.hj=c.hj||function(){(c.hj.q=c.hj.q||[]).push(arguments)};
        c._hjSettings = { hjid: a };
        r = s.getElementsByTagName('head')[0];
        e = s.createElement('script');
        e.async = true;
        e.src = q + c._hjSettings.hjid + u;
        r.appendChild(e);
    })(window, document, 'https://static.hj.contentsquare.net/c/csq-', '.js', 7654321);
</script>`;

// Contentsquare's main tag, as its implementation guide prints it for a site's template.
const CONTENTSQUARE = `<script type="text/javascript">
  (function () {
    window._uxa = window._uxa || [];
    if (typeof CS_CONF === 'undefined') {
      window._uxa.push(['setPath', window.location.pathname+window.location.hash.replace('#','?__')]);
      var mt = document.createElement("script"); mt.type = "text/javascript"; mt.async = true;
      mt.src = "//t.contentsquare.net/uxa/0123456789abc.js";
      document.getElementsByTagName("head")[0].appendChild(mt);
    }
    else {
      window._uxa.push(['trackPageview', window.location.pathname+window.location.hash.replace('#','?__')]);
    }
  })();
</script>`;

// Klarna On-site Messaging through the Klarna Web SDK (merchant portal → On-site messaging → Installation; every
// setup since January 2024): the SDK from js.klarna.com, then a placement element where the message goes.
const KLARNA_OSM = `<script
  async
  data-environment="production"
  src="https://js.klarna.com/web-sdk/v1/klarna.js"
  data-client-id="klarna_live_client_0123456789abcdef"
></script>
<klarna-placement data-key="credit-promotion-badge" data-locale="de-DE" data-purchase-amount="4999"></klarna-placement>`;

// Brevo Conversations: Conversations → Settings → "Install the chat on your website".
const BREVO_CONVERSATIONS = `<!-- Brevo Conversations {literal} -->
<script>
    (function(d, w, c) {
        w.BrevoConversationsID = '0123456789abcdef01234567';
        w[c] = w[c] || function() {
            (w[c].q = w[c].q || []).push(arguments);
        };
        var s = d.createElement('script');
        s.async = true;
        s.src = 'https://conversations-widget.brevo.com/brevo-conversations.js';
        if (d.head) d.head.appendChild(s);
    })(document, window, 'BrevoConversations');
</script>
<!-- /Brevo Conversations {/literal} -->`;

// Smartsupp: Settings → Chat box → Chat code.
const SMARTSUPP = `<!-- Smartsupp Live Chat script -->
<script type="text/javascript">
var _smartsupp = _smartsupp || {};
_smartsupp.key = '0123456789abcdef0123456789abcdef01234567';
window.smartsupp||(function(d) {
  var s,c,o=smartsupp=function(){ o._.push(arguments)};o._=[];
  s=d.getElementsByTagName('script')[0];c=d.createElement('script');
  c.type='text/javascript';c.charset='utf-8';c.async=true;
  c.src='https://www.smartsuppchat.com/loader.js?';s.parentNode.insertBefore(c,s);
})(document);
</script>
<noscript> Powered by <a href=“https://www.smartsupp.com” target=“_blank”>Smartsupp</a></noscript>`;

// Leadfeeder (Dealfront; also Pipedrive's web visitor tracking): Settings → Tracking script.
const LEADFEEDER = `<script> (function(ss,ex){ window.ldfdr=window.ldfdr||function(){(ldfdr._q=ldfdr._q||[]).push([].slice.call(arguments));}; (function(d,s){ fs=d.getElementsByTagName(s)[0]; function ce(src){ var cs=d.createElement(s); cs.src=src; cs.async=1; fs.parentNode.insertBefore(cs,fs); }; ce('https://sc.lfeeder.com/lftracker_v1_'+ss+(ex?'_'+ex:'')+'.js'); })(document,'script'); })('AbCdEfGhIjKlMnOp'); </script>`;

// Trustindex: the widget's "HTML code" for a site without its WordPress plugin.
const TRUSTINDEX = `<script defer async src='https://cdn.trustindex.io/loader.js?0123456789abcdef0123456789a'></script>`;

// Elfsight: a widget's "Add to website" code (the platform script and the widget's element).
const ELFSIGHT = `<!-- Elfsight Google Reviews | Untitled Google Reviews -->
<script src="https://static.elfsight.com/platform/platform.js" async></script>
<div class="elfsight-app-01234567-89ab-cdef-0123-456789abcdef" data-elfsight-app-lazy></div>`;

// Google Calendar: Settings → "Integrate calendar" → embed code; Google Forms: Send → "<>" (embed HTML).
const GOOGLE_EMBEDS = `<iframe src="https://calendar.google.com/calendar/embed?src=club.example%40gmail.com&ctz=Europe%2FBerlin" style="border: 0" width="800" height="600" frameborder="0" scrolling="no"></iframe>
<iframe src="https://docs.google.com/forms/d/e/1FAIpQLSe0123456789abcdefghijklmnopqrstuvwxyzABCDEFG/viewform?embedded=true" width="640" height="800" frameborder="0" marginheight="0" marginwidth="0">Wird geladen…</iframe>`;

// Twitch: the embed guide's iframe player, and its "Embedding Everything" JavaScript form.
const TWITCH = `<iframe src="https://player.twitch.tv/?channel=examplechannel&parent=127.0.0.1" frameborder="0" allowfullscreen="true" scrolling="no" height="378" width="620"></iframe>
<div id="twitch-embed"></div>
<script src="https://embed.twitch.tv/embed/v1.js"></script>
<script type="text/javascript">
  new Twitch.Embed("twitch-embed", {
    width: 854,
    height: 480,
    channel: "monstercat",
    parent: ["127.0.0.1"]
  });
</script>`;

// Smartlook: Project settings → Setup → "Tracking code" (EU region).
const SMARTLOOK = `<script type='text/javascript'>
  window.smartlook||(function(d) {
    var o=smartlook=function(){ o.api.push(arguments)},h=d.getElementsByTagName('head')[0];
    var c=d.createElement('script');o.api=new Array();c.async=true;c.type='text/javascript';
    c.charset='utf-8';c.src='https://web-sdk.smartlook.com/recorder.js';h.appendChild(c);
    })(document);
    smartlook('init', '0123456789abcdef0123456789abcdef01234567', { region: 'eu' });
</script>`;

// Google Translate's website widget, as its long-standing embed code has it (the element, the callback, the loader).
const GOOGLE_TRANSLATE = `<div id="google_translate_element"></div>
<script type="text/javascript">
function googleTranslateElementInit() {
  new google.translate.TranslateElement({pageLanguage: 'de'}, 'google_translate_element');
}
</script>
<script type="text/javascript" src="//translate.google.com/translate_a/element.js?cb=googleTranslateElementInit"></script>`;

// Google My Maps: a map's menu → "Embed on my site" (a custom map of places, common on club and event pages).
// The embed code Google Maps handed out for years, on a country domain, still on many German sites.
const GOOGLE_MAPS_DE = `<iframe width="600" height="400" frameborder="0" scrolling="no" marginheight="0" marginwidth="0" src="https://maps.google.de/maps?f=q&amp;source=s_q&amp;hl=de&amp;q=Brandenburger+Tor,+Berlin&amp;ie=UTF8&amp;z=15&amp;output=embed"></iframe>`;

const GOOGLE_MY_MAPS = `<iframe src="https://www.google.com/maps/d/u/0/embed?mid=1AbCdEfGhIjKlMnOpQrStUvWxYz012345&ehbc=2E312F" width="640" height="480"></iframe>`;

// Vimeo's live event embed (an event's "Embed" code); its video embeds are tested in real-snippets.browser.test.ts.
const VIMEO_EVENT = `<div style="padding:56.25% 0 0 0;position:relative;"><iframe src="https://vimeo.com/event/1234567/embed" frameborder="0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen style="position:absolute;top:0;left:0;width:100%;height:100%;"></iframe></div>`;

// Apple Music and Apple Podcasts: Share → "Embed" (an album track and a podcast episode).
const APPLE_EMBEDS = `<iframe allow="autoplay *; encrypted-media *; fullscreen *; clipboard-write" frameborder="0" height="175" style="width:100%;max-width:660px;overflow:hidden;border-radius:10px;" sandbox="allow-forms allow-popups allow-same-origin allow-scripts allow-storage-access-by-user-activation allow-top-navigation-by-user-activation" src="https://embed.music.apple.com/de/album/example-album/1234567890?i=1234567891"></iframe>
<iframe allow="autoplay *; encrypted-media *; fullscreen *; clipboard-write" frameborder="0" height="175" style="width:100%;max-width:660px;overflow:hidden;border-radius:10px;" sandbox="allow-forms allow-popups allow-same-origin allow-scripts allow-storage-access-by-user-activation allow-top-navigation-by-user-activation" src="https://embed.podcasts.apple.com/de/podcast/example-podcast/id1234567890?i=1000123456789"></iframe>`;

// Issuu: a publication's Share → Embed (the responsive iframe code).
const ISSUU = `<div style="position:relative;padding-top:max(60%,326px);height:0;width:100%"><iframe allow="clipboard-write" sandbox="allow-top-navigation allow-top-navigation-by-user-activation allow-downloads allow-scripts allow-same-origin allow-popups allow-modals allow-popups-to-escape-sandbox allow-forms" allowfullscreen="true" style="position:absolute;border:none;width:100%;height:100%;left:0;right:0;top:0;bottom:0;" src="https://e.issuu.com/embed.html?d=example_brochure_2026&u=examplepublisher"></iframe></div>`;

// Jotform: Publish → Embed → "iFrame" (the frame, the embed handler that sizes it, and the handler's call).
const JOTFORM = `<iframe
      id="JotFormIFrame-230123456789012"
      title="Kontaktformular"
      onload="window.parent.scrollTo(0,0)"
      allowtransparency="true"
      allow="geolocation; microphone; camera; fullscreen"
      src="https://form.jotform.com/230123456789012"
      frameborder="0"
      style="min-width:100%;max-width:100%;height:539px;border:none;"
      scrolling="no"
    >
    </iframe>
    <script src='https://cdn.jotfor.ms/s/umd/latest/for-form-embed-handler.js'></script>
    <script>window.jotformEmbedHandler("iframe[id='JotFormIFrame-230123456789012']", "https://form.jotform.com/")</script>`;

// Microsoft Clarity: Settings → Setup → "Install tracking code manually".
// Segment (Analytics.js 2.0): Sources → JavaScript website → "Analytics.js snippet" (version 5.2.0). `host` is
// `cdn.segment.com`, or the site's own CDN when it proxies Analytics.js as Segment's "Self-hosting or proxying
// Analytics.js" guide says (the snippet's `t.src` host replaced, the API host passed to `load`).
const segment = (host: string, key: string, load = `analytics.load("${key}");`) => `<script>
  !function(){var i="analytics",analytics=window[i]=window[i]||[];if(!analytics.initialize)if(analytics.invoked)window.console&&console.error&&console.error("Segment snippet included twice.");else{analytics.invoked=!0;analytics.methods=["trackSubmit","trackClick","trackLink","trackForm","pageview","identify","reset","group","track","ready","alias","debug","page","screen","once","off","on","addSourceMiddleware","addIntegrationMiddleware","setAnonymousId","addDestinationMiddleware","register"];analytics.factory=function(e){return function(){if(window[i].initialized)return window[i][e].apply(window[i],arguments);var n=Array.prototype.slice.call(arguments);if(["track","screen","alias","group","page","identify"].indexOf(e)>-1){var c=document.querySelector("link[rel='canonical']");n.push({__t:"bpc",c:c&&c.getAttribute("href")||void 0,p:location.pathname,u:location.href,s:location.search,t:document.title,r:document.referrer})}n.unshift(e);analytics.push(n);return analytics}};for(var n=0;n<analytics.methods.length;n++){var key=analytics.methods[n];analytics[key]=analytics.factory(key)}analytics.load=function(key,n){var t=document.createElement("script");t.type="text/javascript";t.async=!0;t.setAttribute("data-global-segment-analytics-key",i);t.src="https://${host}/analytics.js/v1/" + key + "/analytics.min.js";var r=document.getElementsByTagName("script")[0];r.parentNode.insertBefore(t,r);analytics._loadOptions=n};analytics._writeKey="${key}";;analytics.SNIPPET_VERSION="5.2.0";
  ${load}
  analytics.page();
  }}();
</script>`;
const SEGMENT = segment('cdn.segment.com', 'AbCdEfGhIjKlMnOpQrStUvWxYz012345');

// Piwik PRO's container code (Administration → Sites & apps → Installation), for an account on its newer address
// `https://<account>.piwik.pro` (the address Piwik PRO's own React, Next.js and Vue libraries take as `containerUrl`);
// older accounts have `<account>.containers.piwik.pro`, the only form the preset named, so this one ran before consent.
const PIWIK_PRO = `<script type="text/javascript">
(function(window, document, dataLayerName, id) {
window[dataLayerName]=window[dataLayerName]||[],window[dataLayerName].push({start:(new Date).getTime(),event:"stg.start"});var scripts=document.getElementsByTagName('script')[0],tags=document.createElement('script');
var qP=[];dataLayerName!=="dataLayer"&&qP.push("data_layer_name="+dataLayerName);var qPString=qP.length>0?("?"+qP.join("&")):"";
tags.async=!0,tags.src="https://example.piwik.pro/"+id+".js"+qPString,scripts.parentNode.insertBefore(tags,scripts);
!function(a,n,i){a[n]=a[n]||{};for(var c=0;c<i.length;c++)!function(i){a[n][i]=a[n][i]||{},a[n][i].api=a[n][i].api||function(){var a=[].slice.call(arguments,0);"string"==typeof a[1]&&window[dataLayerName].push({event:n+"."+i+":"+a[0],parameters:[].slice.call(arguments,1)})}}(i[c])}(window,"ppms",["tm","cm"]);
})(window, document, 'dataLayer', '0a0b8661-8c10-4d59-a8f0-1b926c0d1840');
</script>`;

const CLARITY = `<script type="text/javascript">
    (function(c,l,a,r,i,t,y){
        c[a]=c[a]||function(){(c[a].q=c[a].q||[]).push(arguments)};
        t=l.createElement(r);t.async=1;t.src="https://www.clarity.ms/tag/"+i;
        y=l.getElementsByTagName(r)[0];y.parentNode.insertBefore(t,y);
    })(window, document, "clarity", "script", "abcdefghij");
</script>`;

// LinkedIn Insight Tag: Campaign Manager → Insight Tag → "I will install the tag myself" (both scripts and the noscript pixel).
const LINKEDIN = `<script type="text/javascript">
_linkedin_partner_id = "1234567";
window._linkedin_data_partner_ids = window._linkedin_data_partner_ids || [];
window._linkedin_data_partner_ids.push(_linkedin_partner_id);
</script><script type="text/javascript">
(function(l) {
if (!l){window.lintrk = function(a,b){window.lintrk.q.push([a,b])};
window.lintrk.q=[]}
var s = document.getElementsByTagName("script")[0];
var b = document.createElement("script");
b.type = "text/javascript";b.async = true;
b.src = "https://snap.licdn.com/li.lms-analytics/insight.min.js";
s.parentNode.insertBefore(b, s);})(window.lintrk);
</script>
<noscript>
<img height="1" width="1" style="display:none;" alt="" src="https://px.ads.linkedin.com/collect/?pid=1234567&fmt=gif" />
</noscript>`;

// TikTok Pixel: Events Manager → "Manually install pixel code" (base code).
const TIKTOK = `<script>
!function (w, d, t) {
  w.TiktokAnalyticsObject=t;var ttq=w[t]=w[t]||[];ttq.methods=["page","track","identify","instances","debug","on","off","once","ready","alias","group","enableCookie","disableCookie","holdConsent","revokeConsent","grantConsent"],ttq.setAndDefer=function(t,e){t[e]=function(){t.push([e].concat(Array.prototype.slice.call(arguments,0)))}};for(var i=0;i<ttq.methods.length;i++)ttq.setAndDefer(ttq,ttq.methods[i]);ttq.instance=function(t){for(
var e=ttq._i[t]||[],n=0;n<ttq.methods.length;n++)ttq.setAndDefer(e,ttq.methods[n]);return e},ttq.load=function(e,n){var r="https://analytics.tiktok.com/i18n/pixel/events.js",o=n&&n.partner;ttq._i=ttq._i||{},ttq._i[e]=[],ttq._i[e]._u=r,ttq._t=ttq._t||{},ttq._t[e]=+new Date,ttq._o=ttq._o||{},ttq._o[e]=n||{};n=document.createElement("script")
;n.type="text/javascript",n.async=!0,n.src=r+"?sdkid="+e+"&lib="+t;e=document.getElementsByTagName("script")[0];e.parentNode.insertBefore(n,e)};

  ttq.load('CXXXXXXXXXXXXXXXXXXX');
  ttq.page();
}(window, document, 'ttq');
</script>`;

// Google Ads conversion tracking: Goals → Conversions → "Install the tag yourself" (the Google tag with an `AW-` id).
const GOOGLE_ADS = `<!-- Google tag (gtag.js) -->
<script async src="https://www.googletagmanager.com/gtag/js?id=AW-123456789"></script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  gtag('js', new Date());

  gtag('config', 'AW-123456789');
</script>`;

// Matomo Cloud: Administration → Websites → Tracking code (the script comes from Matomo's CDN).
const MATOMO_CLOUD = `<!-- Matomo -->
<script>
  var _paq = window._paq = window._paq || [];
  /* tracker methods like "setCustomDimension" should be called before "trackPageView" */
  _paq.push(['trackPageView']);
  _paq.push(['enableLinkTracking']);
  (function() {
    var u="https://example.matomo.cloud/";
    _paq.push(['setTrackerUrl', u+'matomo.php']);
    _paq.push(['setSiteId', '1']);
    var d=document, g=d.createElement('script'), s=d.getElementsByTagName('script')[0];
    g.async=true; g.src='https://cdn.matomo.cloud/example.matomo.cloud/matomo.js'; s.parentNode.insertBefore(g,s);
  })();
</script>
<!-- End Matomo Code -->`;

// Matomo On-Premise: the same tracking code with the site's own, protocol-relative Matomo address.
const MATOMO_SELF = `<!-- Matomo -->
<script>
  var _paq = window._paq = window._paq || [];
  /* tracker methods like "setCustomDimension" should be called before "trackPageView" */
  _paq.push(['trackPageView']);
  _paq.push(['enableLinkTracking']);
  (function() {
    var u="//analytics.example.org/";
    _paq.push(['setTrackerUrl', u+'matomo.php']);
    _paq.push(['setSiteId', '2']);
    var d=document, g=d.createElement('script'), s=d.getElementsByTagName('script')[0];
    g.async=true; g.src=u+'matomo.js'; s.parentNode.insertBefore(g,s);
  })();
</script>
<!-- End Matomo Code -->`;

// HubSpot: Settings → Tracking code, for an account in the North American data centre and one in the EU data centre.
const HUBSPOT = `<!-- Start of HubSpot Embed Code -->
<script type="text/javascript" id="hs-script-loader" async defer src="//js.hs-scripts.com/1234567.js"></script>
<!-- End of HubSpot Embed Code -->`;
const HUBSPOT_EU = `<!-- Start of HubSpot Embed Code -->
<script type="text/javascript" id="hs-script-loader" async defer src="//js-eu1.hs-scripts.com/7654321.js"></script>
<!-- End of HubSpot Embed Code -->`;

// Pinterest Tag: Ads → Conversions → "Install the Pinterest tag manually" (base code).
const PINTEREST = `<!-- Pinterest Tag -->
<script>
!function(e){if(!window.pintrk){window.pintrk = function () {
window.pintrk.queue.push(Array.prototype.slice.call(arguments))};var
  n=window.pintrk;n.queue=[],n.version="3.0";var
  t=document.createElement("script");t.async=!0,t.src=e;var
  r=document.getElementsByTagName("script")[0];
  r.parentNode.insertBefore(t,r)}}("https://s.pinimg.com/ct/core.js");
pintrk('load', '2612345678901', {em: '<user_email_address>'});
pintrk('page');
</script>
<noscript>
<img height="1" width="1" style="display:none;" alt=""
  src="https://ct.pinterest.com/v3/?event=init&tid=2612345678901&pd[em]=<hashed_email_address>&noscript=1" />
</noscript>
<!-- end Pinterest Tag -->`;

// X (Twitter) Pixel: Ads Manager → Events Manager → "Install with pixel code" (base code).
const X_PIXEL = `<!-- Twitter conversion tracking base code -->
<script>
!function(e,t,n,s,u,a){e.twq||(s=e.twq=function(){s.exe?s.exe.apply(s,arguments):s.queue.push(arguments);
},s.version='1.1',s.queue=[],u=t.createElement(n),u.async=!0,u.src='https://static.ads-twitter.com/uwt.js',
a=t.getElementsByTagName(n)[0],a.parentNode.insertBefore(u,a))}(window,document,'script');
twq('config','o1a2b');
</script>
<!-- End Twitter conversion tracking base code -->`;

// Reddit Pixel: Events Manager → "Install manually" (base code).
const REDDIT = `<!-- Reddit Pixel -->
<script>
!function(w,d){if(!w.rdt){var p=w.rdt=function(){p.sendEvent?p.sendEvent.apply(p,arguments):p.callQueue.push(arguments)};p.callQueue=[];var t=d.createElement("script");t.src="https://www.redditstatic.com/ads/pixel.js",t.async=!0;var s=d.getElementsByTagName("script")[0];s.parentNode.insertBefore(t,s)}}(window,document);rdt('init','a2_abcdefghijkl');rdt('track', 'PageVisit');
</script>
<!-- DO NOT MODIFY UNLESS TO REPLACE A USER IDENTIFIER -->
<!-- End Reddit Pixel -->`;

// Snap Pixel: Ads Manager → Events Manager → "Install manually" (base code).
const SNAP = `<!-- Snap Pixel Code -->
<script type='text/javascript'>
(function(e,t,n){if(e.snaptr)return;var a=e.snaptr=function()
{a.handleRequest?a.handleRequest.apply(a,arguments):a.queue.push(arguments)};
a.queue=[];var s='script';r=t.createElement(s);r.async=!0;
r.src=n;var u=t.getElementsByTagName(s)[0];
u.parentNode.insertBefore(r,u);})(window,document,
'https://sc-static.net/scevent.min.js');

snaptr('init', '12345678-abcd-4ef0-9876-0123456789ab', {
'user_email': '__INSERT_USER_EMAIL__'
});

snaptr('track', 'PAGE_VIEW');

</script>
<!-- End Snap Pixel Code -->`;

// Intercom: Settings → Messenger → Install → "Install via code snippet" (basic JavaScript), for a workspace hosted
// in the EU (`api_base` is the regional part; the widget script comes from the same host everywhere).
const INTERCOM = `<script>
  window.intercomSettings = {
    api_base: "https://api-iam.eu.intercom.io",
    app_id: "abc12def",
  };
</script>

<script>
// We pre-filled your app ID in the widget URL: 'https://widget.intercom.io/widget/abc12def'
(function(){var w=window;var ic=w.Intercom;if(typeof ic==="function"){ic('reattach_activator');ic('update',w.intercomSettings);}else{var d=document;var i=function(){i.c(arguments);};i.q=[];i.c=function(args){i.q.push(args);};w.Intercom=i;var l=function(){var s=d.createElement('script');s.type='text/javascript';s.async=true;s.src='https://widget.intercom.io/widget/abc12def';var x=d.getElementsByTagName('script')[0];x.parentNode.insertBefore(s,x);};if(document.readyState==='complete'){l();}else if(w.attachEvent){w.attachEvent('onload',l);}else{w.addEventListener('load',l,false);}}})();
</script>`;

// Google reCAPTCHA v2 checkbox ("Automatically render the widget"), and v3 loaded through recaptcha.net (Google's
// documented alternative host "when www.google.com is not accessible").
const RECAPTCHA = `<script src="https://www.google.com/recaptcha/api.js" async defer></script>
<form action="?" method="POST">
  <div class="g-recaptcha" data-sitekey="6LcXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"></div>
  <br/>
  <input type="submit" value="Submit">
</form>`;
const RECAPTCHA_NET = `<script src="https://www.recaptcha.net/recaptcha/api.js?render=6LcYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYY"></script>
<script>
  function onClick(e) {
    e.preventDefault();
    grecaptcha.ready(function() {
      grecaptcha.execute('6LcYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYY', {action: 'submit'}).then(function(token) {
          // Add your logic to submit to your backend server here.
      });
    });
  }
</script>`;

// Spotify: Share → Embed track.
const SPOTIFY = `<iframe style="border-radius:12px" src="https://open.spotify.com/embed/track/4cOdK2wGLETKBW3PvgPWqT?utm_source=generator" width="100%" height="352" frameBorder="0" allowfullscreen="" allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture" loading="lazy"></iframe>`;

// Calendly: Share → "Add to website" → Inline embed.
const CALENDLY = `<!-- Calendly inline widget begin -->
<div class="calendly-inline-widget" data-url="https://calendly.com/your-name/30min" style="min-width:320px;height:700px;"></div>
<script type="text/javascript" src="https://assets.calendly.com/assets/external/widget.js" async></script>
<!-- Calendly inline widget end -->`;

// Instagram: a post's "…" → Embed (with caption). The grey placeholder boxes inside the blockquote (styled divs and
// an SVG, nothing that loads) are left out; the blockquote's attributes, link, caption and script are Instagram's.
const INSTAGRAM = `<blockquote class="instagram-media" data-instgrm-captioned data-instgrm-permalink="https://www.instagram.com/p/C0aBcDeFgHi/?utm_source=ig_embed&amp;utm_campaign=loading" data-instgrm-version="14" style=" background:#FFF; border:0; border-radius:3px; box-shadow:0 0 1px 0 rgba(0,0,0,0.5),0 1px 10px 0 rgba(0,0,0,0.15); margin: 1px; max-width:540px; min-width:326px; padding:0; width:99.375%; width:-webkit-calc(100% - 2px); width:calc(100% - 2px);"><div style="padding:16px;"> <a href="https://www.instagram.com/p/C0aBcDeFgHi/?utm_source=ig_embed&amp;utm_campaign=loading" style=" background:#FFFFFF; line-height:0; padding:0 0; text-align:center; text-decoration:none; width:100%;" target="_blank"> <div style="padding-top: 8px;"> <div style=" color:#3897f0; font-family:Arial,sans-serif; font-size:14px; font-style:normal; font-weight:550; line-height:18px;">View this post on Instagram</div></div></a><p style=" color:#c9c8cd; font-family:Arial,sans-serif; font-size:14px; line-height:17px; margin-bottom:0; margin-top:8px; overflow:hidden; padding:8px 0 7px; text-align:center; text-overflow:ellipsis; white-space:nowrap;"><a href="https://www.instagram.com/p/C0aBcDeFgHi/?utm_source=ig_embed&amp;utm_campaign=loading" style=" color:#c9c8cd; font-family:Arial,sans-serif; font-size:14px; font-style:normal; font-weight:normal; line-height:17px; text-decoration:none;" target="_blank">A post shared by Example Shop (@exampleshop)</a></p></div></blockquote>
<script async src="//www.instagram.com/embed.js"></script>`;

// X: a post's "…" → Embed post (publish.x.com).
const X_EMBED = `<blockquote class="twitter-tweet"><p lang="en" dir="ltr">Our new store opens today! <a href="https://t.co/AbCdEfGhIj">pic.twitter.com/AbCdEfGhIj</a></p>&mdash; Example Shop (@exampleshop) <a href="https://twitter.com/exampleshop/status/1234567890123456789?ref_src=twsrc%5Etfw">November 26, 2026</a></blockquote> <script async src="https://platform.twitter.com/widgets.js" charset="utf-8"></script>`;

/** Addresses are compared without scheme: protocol-relative snippets load over the page's http, HSTS may upgrade. */
// Stop 48: services the catalogue had no preset for, each with the embed code the vendor hands out (ids replaced).
// Userlike: Config → Widgets → "Install" (the widget script, one per widget).
const USERLIKE = `<script async type="text/javascript" src="https://userlike-cdn-widgets.s3-eu-west-1.amazonaws.com/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.js"></script>`;
// ProvenExpert: "Rich Snippets" widget (the stars in Google's results and on the page).
const PROVENEXPERT = `<div class="pe-richsnippets"></div>
<script type="text/javascript" src="https://www.provenexpert.com/widget/richsnippet.js?u=1AbCdEfGhIjKlMnOpQrStUvWxYz&v=2" async></script>`;
// Podigee: the episode's "Embed" code (script player).
const PODIGEE = `<script class="podigee-podcast-player" src="https://player.podigee-cdn.net/podcast-player/javascripts/podigee-podcast-player.js" data-configuration="https://example-podcast.podigee.io/1-first-episode/embed?context=external"></script>`;
// Bandcamp: Share/Embed → "Embed this album".
const BANDCAMP = `<iframe style="border: 0; width: 350px; height: 470px;" src="https://bandcamp.com/EmbeddedPlayer/album=1234567890/size=large/bgcol=ffffff/linkcol=0687f5/tracklist=false/transparent=true/" seamless><a href="https://exampleband.bandcamp.com/album/example-album">Example Album by Example Band</a></iframe>`;
// Deezer: Share → Integrate → the widget's iframe.
const DEEZER = `<iframe title="deezer-widget" src="https://widget.deezer.com/widget/auto/album/302127" width="100%" height="300" frameborder="0" allowtransparency="true" allow="encrypted-media; clipboard-write"></iframe>`;
// Mixcloud: Share → Embed (the widget on player-widget.mixcloud.com; older codes use www.mixcloud.com/widget/iframe/).
const MIXCLOUD = `<iframe width="100%" height="120" src="https://player-widget.mixcloud.com/widget/iframe/?hide_cover=1&feed=%2Fexampledj%2Fexample-mix%2F" frameborder="0" allow="encrypted-media; fullscreen; autoplay; idle-detection; speaker-selection; web-share;"></iframe>
<iframe width="100%" height="60" src="https://www.mixcloud.com/widget/iframe/?hide_cover=1&mini=1&feed=%2Fexampledj%2Folder-mix%2F" frameborder="0"></iframe>`;
// Microsoft Forms: Collect responses → Embed.
const MS_FORMS = `<iframe width="640px" height="480px" src="https://forms.office.com/Pages/ResponsePage.aspx?id=AbCdEfGhIjKlMnOpQrStUvWxYz0123456789&embed=true" frameborder="0" marginwidth="0" marginheight="0" style="border: none; max-width:100%; max-height:100vh" allowfullscreen webkitallowfullscreen mozallowfullscreen msallowfullscreen> </iframe>`;
// uMap: Share → "Embed the map" (protocol-relative, as uMap writes it).
const UMAP = `<iframe width="100%" height="300px" frameborder="0" allowfullscreen allow="geolocation" src="//umap.openstreetmap.fr/de/map/vereinsheim_123456?scaleControl=false&miniMap=false&scrollWheelZoom=false&zoomControl=true&editMode=disabled&moreControl=true&searchControl=null&tilelayersControl=null&embedControl=null&datalayersControl=true&onLoadPanel=none&captionBar=false&captionMenus=true"></iframe><p><a href="//umap.openstreetmap.fr/de/map/vereinsheim_123456?scaleControl=false&miniMap=false&scrollWheelZoom=true&zoomControl=true&editMode=disabled&moreControl=true&searchControl=null&tilelayersControl=null&embedControl=null&datalayersControl=true&onLoadPanel=none&captionBar=false&captionMenus=true">Vollbildanzeige</a></p>`;
// Komoot: a tour's "Embed" code.
const KOMOOT = `<iframe src="https://www.komoot.com/de-de/tour/123456789/embed?share_token=aAbBcCdDeEfF&profile=1" width="100%" height="700" frameborder="0" scrolling="no"></iframe>`;
// Canva: Share → "Embed" (HTML embed code).
const CANVA = `<div style="position: relative; width: 100%; height: 0; padding-top: 56.2500%; padding-bottom: 0; box-shadow: 0 2px 8px 0 rgba(63,69,81,0.16); margin-top: 1.6em; margin-bottom: 0.9em; overflow: hidden; border-radius: 8px; will-change: transform;">
  <iframe loading="lazy" style="position: absolute; width: 100%; height: 100%; top: 0; left: 0; border: none; padding: 0;margin: 0;" src="https://www.canva.com/design/DAFabcdefgh/view?embed" allowfullscreen="allowfullscreen" allow="fullscreen"></iframe>
</div>`;
// Genially: Share → Embed → "Responsive".
const GENIALLY = `<div style="width: 100%;"><div style="position: relative; padding-bottom: 56.25%; padding-top: 0; height: 0;"><iframe title="Example" frameborder="0" width="1200px" height="675px" style="position: absolute; top: 0; left: 0; width: 100%; height: 100%;" src="https://view.genially.com/0123456789abcdef01234567" type="text/html" allowscriptaccess="always" allowfullscreen="true" scrolling="yes" allownetworking="all"></iframe> </div> </div>`;
// Prezi: Share → Embed.
const PREZI = `<iframe src="https://prezi.com/p/embed/abcdefghijkl/" id="iframe_container" frameborder="0" webkitallowfullscreen="" mozallowfullscreen="" allowfullscreen="" allow="autoplay; fullscreen" height="315" width="560"></iframe>`;
// Matterport: Share → Embed.
const MATTERPORT = `<iframe width="853" height="480" src="https://my.matterport.com/show/?m=AbCdEfGhIjK" frameborder="0" allowfullscreen allow="autoplay; fullscreen; web-share; xr-spatial-tracking;"></iframe>`;
// SlideShare: Share → Embed.
const SLIDESHARE = `<iframe src="https://www.slideshare.net/slideshow/embed_code/key/AbCdEfGhIjKlMn" width="510" height="420" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" style="border:1px solid #CCC; border-width:1px; margin-bottom:5px; max-width: 100%;" allowfullscreen></iframe>`;
// Zoho SalesIQ: Settings → Brands → Installation → "Website" (EU data centre).
const ZOHO_SALESIQ = `<script>window.$zoho=window.$zoho || {};$zoho.salesiq=$zoho.salesiq||{ready:function(){}}</script><script id="zsiqscript" src="https://salesiq.zohopublic.eu/widget?wc=siq0123456789abcdef0123456789abcdef" defer></script>`;
// OptinMonster: the universal embed code.
const OPTINMONSTER = `<script type="text/javascript" src="https://a.omappapi.com/app/js/api.min.js" data-account="123456" data-user="654321" async></script>`;
// CodePen: a pen's "Embed" (HTML, the default), which ei.js turns into the pen's frame.
const CODEPEN = `<p class="codepen" data-height="300" data-default-tab="html,result" data-slug-hash="AbCdEfG" data-pen-title="Example" data-user="example" style="height: 300px; box-sizing: border-box; display: flex; align-items: center; justify-content: center; border: 2px solid; margin: 1em 0; padding: 1em;">
  <span>See the Pen <a href="https://codepen.io/example/pen/AbCdEfG">Example</a> by Example (<a href="https://codepen.io/example">@example</a>) on <a href="https://codepen.io">CodePen</a>.</span>
</p>
<script async src="https://cpwebassets.codepen.io/assets/embed/ei.js"></script>`;
// Strava: an activity's "Embed on Blog", which embed.js turns into the activity's frame.
const STRAVA = `<div class="strava-embed-placeholder" data-embed-type="activity" data-embed-id="1234567890" data-style="standard"></div><script src="https://strava-embeds.com/embed.js"></script>`;

const bare = (u: string) => u.replace(/^(https?:)?\/\//, '');

interface Loaded {
  /** Start of the address, without scheme. */
  url: string;
  /** Written with `src` in the page's HTML: Chromium's preload scanner may fetch it; it must not run. */
  html?: boolean;
}
interface Vendor {
  preset: string;
  snippet: string;
  place: 'head' | 'body';
  /** Scripts the snippet makes the browser load, and the global each stand-in sets. */
  scripts: (Loaded & { global: string })[];
  /** Globals the snippet's own inline code defines: undefined until it runs. */
  inline?: string[];
  /** Frames: written into the HTML (`html`), or built by the vendor's script (its stand-in builds it likewise). */
  frames?: Loaded[];
  /** Inline code of the snippet that names nothing to block, loads nothing by itself and may run (a substring of it). */
  free?: string;
}

const VENDORS: Record<string, Vendor> = {
  hotjar: { preset: 'Hotjar', snippet: HOTJAR, place: 'head', scripts: [{ url: 'static.hotjar.com/c/hotjar-1234567.js?sv=6', global: '__ran_hotjar' }], inline: ['hj', '_hjSettings'] },
  hotjarCsq: { preset: 'Hotjar', snippet: HOTJAR_CSQ, place: 'head', scripts: [{ url: 'static.hj.contentsquare.net/c/csq-7654321.js', global: '__ran_hotjar_csq' }], inline: ['hj', '_hjSettings'] },
  contentsquare: { preset: 'Contentsquare', snippet: CONTENTSQUARE, place: 'head', scripts: [{ url: 't.contentsquare.net/uxa/0123456789abc.js', global: '__ran_contentsquare' }], inline: ['_uxa'] },
  piwikPro: { preset: 'Piwik PRO', snippet: PIWIK_PRO, place: 'head', scripts: [{ url: 'example.piwik.pro/0a0b8661-8c10-4d59-a8f0-1b926c0d1840.js', global: '__ran_piwik_pro' }], inline: ['ppms'] },
  segment: { preset: 'Segment', snippet: SEGMENT, place: 'head', scripts: [{ url: 'cdn.segment.com/analytics.js/v1/AbCdEfGhIjKlMnOpQrStUvWxYz012345/analytics.min.js', global: '__ran_segment' }], inline: ['analytics'] },
  clarity: { preset: 'Microsoft Clarity', snippet: CLARITY, place: 'head', scripts: [{ url: 'www.clarity.ms/tag/abcdefghij', global: '__ran_clarity' }], inline: ['clarity'] },
  linkedin: {
    preset: 'LinkedIn Insight Tag', snippet: LINKEDIN, place: 'head',
    scripts: [{ url: 'snap.licdn.com/li.lms-analytics/insight.min.js', global: '__ran_linkedin' }], inline: ['_linkedin_partner_id', '_linkedin_data_partner_ids', 'lintrk'],
  },
  tiktok: { preset: 'TikTok Pixel', snippet: TIKTOK, place: 'head', scripts: [{ url: 'analytics.tiktok.com/i18n/pixel/events.js?sdkid=CXXXXXXXXXXXXXXXXXXX&lib=ttq', global: '__ran_tiktok' }], inline: ['ttq', 'TiktokAnalyticsObject'] },
  googleAds: {
    preset: 'Google Ads Conversion Tracking', snippet: GOOGLE_ADS, place: 'head',
    // Its inline part configures the `AW-` tag, so the catalogue claims it too (it is not free, as GA4's is); it
    // defines no global of its own (the widget defines `gtag` and `dataLayer` for Consent Mode): what it pushes is
    // checked in real-snippets.browser.test.ts ("one Google tag for GA4 and Google Ads").
    scripts: [{ url: 'www.googletagmanager.com/gtag/js?id=AW-123456789', global: '__ran_gtag_aw', html: true }],
  },
  matomoCloud: { preset: 'Matomo', snippet: MATOMO_CLOUD, place: 'head', scripts: [{ url: 'cdn.matomo.cloud/example.matomo.cloud/matomo.js', global: '__ran_matomo_cloud' }], inline: ['_paq'] },
  matomoSelf: { preset: 'Matomo', snippet: MATOMO_SELF, place: 'head', scripts: [{ url: 'analytics.example.org/matomo.js', global: '__ran_matomo_self' }], inline: ['_paq'] },
  hubspot: { preset: 'HubSpot Analytics', snippet: HUBSPOT, place: 'head', scripts: [{ url: 'js.hs-scripts.com/1234567.js', global: '__ran_hubspot', html: true }] },
  hubspotEu: { preset: 'HubSpot Analytics', snippet: HUBSPOT_EU, place: 'head', scripts: [{ url: 'js-eu1.hs-scripts.com/7654321.js', global: '__ran_hubspot_eu', html: true }] },
  pinterest: { preset: 'Pinterest Tag', snippet: PINTEREST, place: 'head', scripts: [{ url: 's.pinimg.com/ct/core.js', global: '__ran_pinterest' }], inline: ['pintrk'] },
  xPixel: { preset: 'X (Twitter) Pixel', snippet: X_PIXEL, place: 'head', scripts: [{ url: 'static.ads-twitter.com/uwt.js', global: '__ran_twitter_uwt' }], inline: ['twq'] },
  reddit: { preset: 'Reddit Pixel', snippet: REDDIT, place: 'head', scripts: [{ url: 'www.redditstatic.com/ads/pixel.js', global: '__ran_reddit' }], inline: ['rdt'] },
  snap: { preset: 'Snap Pixel', snippet: SNAP, place: 'head', scripts: [{ url: 'sc-static.net/scevent.min.js', global: '__ran_snap' }], inline: ['snaptr'] },
  intercom: { preset: 'Intercom', snippet: INTERCOM, place: 'body', scripts: [{ url: 'widget.intercom.io/widget/abc12def', global: '__ran_intercom' }], inline: ['intercomSettings', 'Intercom'] },
  recaptcha: {
    preset: 'Google reCAPTCHA', snippet: RECAPTCHA, place: 'body',
    scripts: [{ url: 'www.google.com/recaptcha/api.js', global: '__ran_recaptcha', html: true }], frames: [{ url: 'www.google.com/recaptcha/api2/anchor?k=6LcX' }],
  },
  recaptchaNet: {
    preset: 'Google reCAPTCHA', snippet: RECAPTCHA_NET, place: 'body',
    scripts: [{ url: 'www.recaptcha.net/recaptcha/api.js?render=6LcY', global: '__ran_recaptcha_net', html: true }], free: 'function onClick(e)',
  },
  klarnaOsm: { preset: 'Klarna On-site Messaging', snippet: KLARNA_OSM, place: 'body', scripts: [{ url: 'js.klarna.com/web-sdk/v1/klarna.js', global: '__ran_klarna_osm', html: true }] },
  brevoConversations: {
    preset: 'Brevo Conversations', snippet: BREVO_CONVERSATIONS, place: 'body',
    scripts: [{ url: 'conversations-widget.brevo.com/brevo-conversations.js', global: '__ran_brevo_conversations' }], inline: ['BrevoConversationsID', 'BrevoConversations'],
  },
  smartsupp: { preset: 'Smartsupp', snippet: SMARTSUPP, place: 'body', scripts: [{ url: 'www.smartsuppchat.com/loader.js', global: '__ran_smartsupp' }], inline: ['_smartsupp', 'smartsupp'] },
  leadfeeder: { preset: 'Leadfeeder (Dealfront)', snippet: LEADFEEDER, place: 'head', scripts: [{ url: 'sc.lfeeder.com/lftracker_v1_AbCdEfGhIjKlMnOp.js', global: '__ran_leadfeeder' }], inline: ['ldfdr'] },
  trustindex: { preset: 'Trustindex', snippet: TRUSTINDEX, place: 'body', scripts: [{ url: 'cdn.trustindex.io/loader.js?0123456789abcdef0123456789a', global: '__ran_trustindex', html: true }] },
  elfsight: { preset: 'Elfsight', snippet: ELFSIGHT, place: 'body', scripts: [{ url: 'static.elfsight.com/platform/platform.js', global: '__ran_elfsight', html: true }] },
  googleEmbeds: {
    preset: 'Google Calendar, Forms and Docs embeds', snippet: GOOGLE_EMBEDS, place: 'body', scripts: [],
    frames: [{ url: 'calendar.google.com/calendar/embed?src=club.example', html: true }, { url: 'docs.google.com/forms/d/e/1FAIpQLSe', html: true }],
  },
  twitch: {
    preset: 'Twitch', snippet: TWITCH, place: 'body',
    scripts: [{ url: 'embed.twitch.tv/embed/v1.js', global: '__ran_twitch', html: true }],
    frames: [{ url: 'player.twitch.tv/?channel=examplechannel', html: true }, { url: 'embed.twitch.tv/?channel=monstercat' }],
  },
  smartlook: { preset: 'Smartlook', snippet: SMARTLOOK, place: 'head', scripts: [{ url: 'web-sdk.smartlook.com/recorder.js', global: '__ran_smartlook' }], inline: ['smartlook'] },
  googleTranslate: {
    preset: 'Google Translate (website widget)', snippet: GOOGLE_TRANSLATE, place: 'body',
    scripts: [{ url: 'translate.google.com/translate_a/element.js?cb=googleTranslateElementInit', global: '__ran_google_translate', html: true }],
    inline: ['googleTranslateElementInit', '__translate_built'],
  },
  googleMapsDe: { preset: 'Google Maps', snippet: GOOGLE_MAPS_DE, place: 'body', scripts: [], frames: [{ url: 'maps.google.de/maps?f=q&source=s_q&hl=de&q=Brandenburger', html: true }] },
  googleMyMaps: { preset: 'Google Maps', snippet: GOOGLE_MY_MAPS, place: 'body', scripts: [], frames: [{ url: 'www.google.com/maps/d/u/0/embed?mid=', html: true }] },
  vimeoEvent: { preset: 'Vimeo', snippet: VIMEO_EVENT, place: 'body', scripts: [], frames: [{ url: 'vimeo.com/event/1234567/embed', html: true }] },
  apple: {
    preset: 'Apple Music and Podcasts embeds', snippet: APPLE_EMBEDS, place: 'body', scripts: [],
    frames: [{ url: 'embed.music.apple.com/de/album/example-album/', html: true }, { url: 'embed.podcasts.apple.com/de/podcast/example-podcast/', html: true }],
  },
  issuu: { preset: 'Issuu', snippet: ISSUU, place: 'body', scripts: [], frames: [{ url: 'e.issuu.com/embed.html?d=example_brochure_2026', html: true }] },
  jotform: {
    preset: 'Jotform', snippet: JOTFORM, place: 'body',
    scripts: [{ url: 'cdn.jotfor.ms/s/umd/latest/for-form-embed-handler.js', global: '__ran_jotform', html: true }],
    frames: [{ url: 'form.jotform.com/230123456789012', html: true }], inline: ['__jotform_sized'],
  },
  spotify: { preset: 'Spotify Embeds', snippet: SPOTIFY, place: 'body', scripts: [], frames: [{ url: 'open.spotify.com/embed/track/4cOdK2wGLETKBW3PvgPWqT', html: true }] },
  calendly: {
    preset: 'Calendly', snippet: CALENDLY, place: 'body',
    scripts: [{ url: 'assets.calendly.com/assets/external/widget.js', global: '__ran_calendly', html: true }], frames: [{ url: 'calendly.com/your-name/30min?embed_domain=' }],
  },
  instagram: {
    preset: 'Instagram Embeds', snippet: INSTAGRAM, place: 'body',
    scripts: [{ url: 'www.instagram.com/embed.js', global: '__ran_instagram', html: true }], frames: [{ url: 'www.instagram.com/p/C0aBcDeFgHi/embed/captioned/' }],
  },
  xEmbed: {
    preset: 'X (Twitter) Embeds', snippet: X_EMBED, place: 'body',
    scripts: [{ url: 'platform.twitter.com/widgets.js', global: '__ran_twitter_widgets', html: true }], frames: [{ url: 'platform.twitter.com/embed/Tweet.html?id=1234567890123456789' }],
  },
  userlike: {
    preset: 'Userlike', snippet: USERLIKE, place: 'body',
    scripts: [{ url: 'userlike-cdn-widgets.s3-eu-west-1.amazonaws.com/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.js', global: '__ran_userlike', html: true }],
  },
  provenExpert: { preset: 'ProvenExpert', snippet: PROVENEXPERT, place: 'body', scripts: [{ url: 'www.provenexpert.com/widget/richsnippet.js?u=1AbC', global: '__ran_provenexpert', html: true }] },
  podigee: {
    preset: 'Podigee', snippet: PODIGEE, place: 'body',
    scripts: [{ url: 'player.podigee-cdn.net/podcast-player/javascripts/podigee-podcast-player.js', global: '__ran_podigee', html: true }],
    frames: [{ url: 'player.podigee-cdn.net/podcast-player/index.html' }],
  },
  bandcamp: { preset: 'Bandcamp', snippet: BANDCAMP, place: 'body', scripts: [], frames: [{ url: 'bandcamp.com/EmbeddedPlayer/album=1234567890/', html: true }] },
  deezer: { preset: 'Deezer', snippet: DEEZER, place: 'body', scripts: [], frames: [{ url: 'widget.deezer.com/widget/auto/album/302127', html: true }] },
  mixcloud: {
    preset: 'Mixcloud', snippet: MIXCLOUD, place: 'body', scripts: [],
    frames: [{ url: 'player-widget.mixcloud.com/widget/iframe/?hide_cover=1&feed=%2Fexampledj%2Fexample-mix', html: true }, { url: 'www.mixcloud.com/widget/iframe/?hide_cover=1&mini=1', html: true }],
  },
  msForms: { preset: 'Microsoft Forms', snippet: MS_FORMS, place: 'body', scripts: [], frames: [{ url: 'forms.office.com/Pages/ResponsePage.aspx?id=AbCd', html: true }] },
  umap: { preset: 'uMap', snippet: UMAP, place: 'body', scripts: [], frames: [{ url: 'umap.openstreetmap.fr/de/map/vereinsheim_123456', html: true }] },
  komoot: { preset: 'Komoot', snippet: KOMOOT, place: 'body', scripts: [], frames: [{ url: 'www.komoot.com/de-de/tour/123456789/embed', html: true }] },
  canva: { preset: 'Canva', snippet: CANVA, place: 'body', scripts: [], frames: [{ url: 'www.canva.com/design/DAFabcdefgh/view?embed', html: true }] },
  genially: { preset: 'Genially', snippet: GENIALLY, place: 'body', scripts: [], frames: [{ url: 'view.genially.com/0123456789abcdef01234567', html: true }] },
  prezi: { preset: 'Prezi', snippet: PREZI, place: 'body', scripts: [], frames: [{ url: 'prezi.com/p/embed/abcdefghijkl/', html: true }] },
  matterport: { preset: 'Matterport', snippet: MATTERPORT, place: 'body', scripts: [], frames: [{ url: 'my.matterport.com/show/?m=AbCdEfGhIjK', html: true }] },
  slideshare: { preset: 'SlideShare', snippet: SLIDESHARE, place: 'body', scripts: [], frames: [{ url: 'www.slideshare.net/slideshow/embed_code/key/AbCdEfGhIjKlMn', html: true }] },
  zohoSalesiq: {
    preset: 'Zoho SalesIQ', snippet: ZOHO_SALESIQ, place: 'body',
    scripts: [{ url: 'salesiq.zohopublic.eu/widget?wc=siq0123456789abcdef', global: '__ran_zoho_salesiq', html: true }], inline: ['$zoho'],
  },
  optinmonster: { preset: 'OptinMonster', snippet: OPTINMONSTER, place: 'body', scripts: [{ url: 'a.omappapi.com/app/js/api.min.js', global: '__ran_optinmonster', html: true }] },
  codepen: {
    preset: 'CodePen', snippet: CODEPEN, place: 'body',
    scripts: [{ url: 'cpwebassets.codepen.io/assets/embed/ei.js', global: '__ran_codepen', html: true }], frames: [{ url: 'codepen.io/example/embed/AbCdEfG' }],
  },
  strava: {
    preset: 'Strava', snippet: STRAVA, place: 'body',
    scripts: [{ url: 'strava-embeds.com/embed.js', global: '__ran_strava', html: true }], frames: [{ url: 'strava-embeds.com/activity/1234567890' }],
  },
};
const ENTRIES = Object.entries(VENDORS);
const SCRIPTS = ENTRIES.flatMap(([name, v]) => v.scripts.map((s) => ({ name, ...s })));
const FRAMES = ENTRIES.flatMap(([name, v]) => (v.frames ?? []).map((f) => ({ name, ...f })));
const INLINE = [...new Set(ENTRIES.flatMap(([, v]) => v.inline ?? []))];
const PRESET_NAMES = [...new Set(ENTRIES.map(([, v]) => v.preset))];

/**
 * What the real loaders of the embeds do once they run, so that the frames they build go through the widget as
 * the real ones do: Calendly's widget.js fills its div with the booking page, Instagram's embed.js and X's
 * widgets.js replace their blockquote with the post's frame, reCAPTCHA's api.js renders the checkbox frame.
 */
const STAND_IN_EXTRA: Record<string, string> = {
  __ran_twitch: `window.Twitch={Embed:function(id,o){var f=document.createElement('iframe');f.src='https://embed.twitch.tv/?channel='+o.channel+'&parent='+o.parent[0];f.width=o.width;f.height=o.height;document.getElementById(id).appendChild(f);}};`,
  // The loader calls the page's callback, which builds the widget through `google.translate` (defined here).
  __ran_google_translate: `window.google=window.google||{};google.translate={TranslateElement:function(){window.__translate_built=true;}};googleTranslateElementInit();`,
  __ran_jotform: `window.jotformEmbedHandler=function(){window.__jotform_sized=true;};`,
  __ran_calendly: `document.querySelectorAll('.calendly-inline-widget').forEach(function(d){var f=document.createElement('iframe');f.src=d.getAttribute('data-url')+'?embed_domain='+location.host+'&embed_type=Inline';f.width='100%';f.height='100%';d.appendChild(f);});`,
  __ran_instagram: `document.querySelectorAll('blockquote.instagram-media').forEach(function(b){var f=document.createElement('iframe');f.src=b.getAttribute('data-instgrm-permalink').split('?')[0]+'embed/captioned/?cr=1&v=14';f.width='540';f.height='600';b.replaceWith(f);});`,
  __ran_twitter_widgets: `document.querySelectorAll('blockquote.twitter-tweet').forEach(function(b){var id=/status\\/(\\d+)/.exec(b.innerHTML)[1];var f=document.createElement('iframe');f.src='https://platform.twitter.com/embed/Tweet.html?id='+id;f.width='550';f.height='400';b.replaceWith(f);});`,
  __ran_recaptcha: `document.querySelectorAll('.g-recaptcha').forEach(function(d){var f=document.createElement('iframe');f.src='https://www.google.com/recaptcha/api2/anchor?k='+d.getAttribute('data-sitekey')+'&co=aHR0cA..&hl=en&v=x&size=normal';f.width='304';f.height='78';d.appendChild(f);});`,
  __ran_podigee: `document.querySelectorAll('script.podigee-podcast-player').forEach(function(s){var f=document.createElement('iframe');f.src='https://player.podigee-cdn.net/podcast-player/index.html?iframeMode=script';f.height='200';s.parentNode.insertBefore(f,s.nextSibling);});`,
  __ran_codepen: `document.querySelectorAll('p.codepen').forEach(function(p){var f=document.createElement('iframe');f.src='https://codepen.io/'+p.getAttribute('data-user')+'/embed/'+p.getAttribute('data-slug-hash')+'?default-tab=html%2Cresult';f.height=p.getAttribute('data-height');p.replaceWith(f);});`,
  __ran_strava: `document.querySelectorAll('.strava-embed-placeholder').forEach(function(d){var f=document.createElement('iframe');f.src='https://strava-embeds.com/'+d.getAttribute('data-embed-type')+'/'+d.getAttribute('data-embed-id')+'?style='+d.getAttribute('data-style');f.height='400';d.replaceWith(f);});`,
};

/**
 * What HubSpot's loader (`hs-scripts.com/<id>.js`) inserts, each with `createElement('script')` and `insertBefore`:
 * the analytics script and, as the account has them on, the collected-forms capture, the ads pixel and the chat,
 * each from the data centre's hosts (`js-eu1.*` for the EU). They belong to three presets, so consent to
 * Analytics alone must run only the first.
 */
const HUBSPOT_PARTS = (['js', 'js-eu1'] as const).flatMap((h) => {
  const eu = h === 'js' ? '' : '_eu';
  const id = h === 'js' ? '1234567' : '7654321';
  return [
    { loader: `__ran_hubspot${eu}`, preset: 'HubSpot Analytics', url: `${h}.hs-analytics.net/analytics/1700000000000/${id}.js`, global: `__ran_hs_analytics${eu}` },
    { loader: `__ran_hubspot${eu}`, preset: 'HubSpot Forms and Marketing', url: `${h}.hscollectedforms.net/collectedforms.js`, global: `__ran_hs_collectedforms${eu}` },
    { loader: `__ran_hubspot${eu}`, preset: 'HubSpot Forms and Marketing', url: `${h}.hsadspixel.net/fb.js`, global: `__ran_hs_adspixel${eu}` },
    { loader: `__ran_hubspot${eu}`, preset: 'HubSpot Chat', url: `${h}.usemessages.com/conversations-embed.js`, global: `__ran_hs_chat${eu}` },
  ];
});
for (const loader of ['__ran_hubspot', '__ran_hubspot_eu']) {
  const urls = HUBSPOT_PARTS.filter((p) => p.loader === loader).map((p) => `https://${p.url}`);
  STAND_IN_EXTRA[loader] = `${JSON.stringify(urls)}.forEach(function(u){var c=document.createElement('script');c.src=u;c.type='text/javascript';var n=document.getElementsByTagName('script')[0];n.parentNode.insertBefore(c,n);});`;
}
const STAND_IN_SCRIPTS = [...SCRIPTS, ...HUBSPOT_PARTS];

const presetNamed = (name: string) => CATALOGUE.find((p) => p.name === name)!;
const presetOf = (v: Vendor) => presetNamed(v.preset);
/** Each `<script>` of a snippet: its `src` (in either quotes), or its inline text. */
const scriptsOf = (html: string) =>
  [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map(([, attrs, text]) => /\ssrc=(?:"([^"]+)"|'([^']+)')/.exec(attrs!)?.slice(1).find(Boolean) ?? text!);

let browser: Browser;
let site: Site;
let app: App;
let env: BrowserApp;
let appUrl = '';
let pageNo = 0;

beforeAll(async () => {
  env = await startBrowserApp(KEY);
  ({ site, app, appUrl, browser } = env);
});

afterAll(async () => {
  await env?.close();
});

const hosting = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => hostingCall(app, KEY, method, url, payload);

/**
 * The test site's domain with one active embedding per preset (real-snippets-common.ts); returns the widget's
 * snippet, in strict mode the one the Hosting API hands out.
 */
async function setup(presetNames = PRESET_NAMES, strict = false): Promise<string> {
  const { base, snippet } = await presetDomain(hosting, appUrl, `http://127.0.0.1:${site.port}`, presetNames);
  if (strict) {
    // The snippet the Hosting API hands out in strict mode: a policy per embedding that names a host, before the widget.
    expect((await hosting('PUT', base, { strictBlocking: true })).strictBlocking).toBe(true);
    return ((await hosting('GET', `${base}/onboarding/embed`)).default as string).replace(/&amp;/g, '&');
  }
  return snippet;
}

const pageHtml = (widgetSnippet: string) => `<!doctype html><html><head><meta charset="utf-8">${widgetSnippet}
${ENTRIES.filter(([, v]) => v.place === 'head').map(([, v]) => v.snippet).join('\n')}
</head><body>
<h1>Shop</h1>
${ENTRIES.filter(([, v]) => v.place === 'body').map(([, v]) => `<section>${v.snippet}</section>`).join('\n')}
</body></html>`;

/** Stand-ins for the vendor hosts of the snippets above (open() records the request first). */
async function standIns(route: Route) {
  const url = route.request().url();
  // The longest address that starts this request (reCAPTCHA's two api.js differ only in host).
  const script = STAND_IN_SCRIPTS.filter((s) => bare(url).startsWith(s.url)).sort((a, b) => b.url.length - a.url.length)[0];
  if (script) {
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: `window.${script.global} = true;${STAND_IN_EXTRA[script.global] ?? ''}` });
  }
  if (route.request().resourceType() === 'document') return route.fulfill({ status: 200, contentType: 'text/html', body: STAND_IN_PAGE });
  return route.fulfill({ status: 204, body: '' });
}

/**
 * The page `html` on the test site, in a fresh context: the widget and the test site (127.0.0.1) are served for real,
 * every other request is recorded and answered by `answer`.
 */
async function open(widgetSnippet: string, html = pageHtml, answer: (route: Route) => Promise<void> = standIns): Promise<Opened> {
  const path = `/more${++pageNo}`;
  site.setPage(path, html(widgetSnippet));
  const context = await browser.newContext();
  const requests: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).hostname === '127.0.0.1') return route.continue();
    requests.push(url);
    return answer(route);
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${site.url}${path}`);
  await page.waitForFunction(() => document.readyState === 'complete');
  await page.waitForTimeout(500);
  return { context, page, requests, errors };
}

const widget = (page: Page) => page.locator('#ccm-widget');
const typeOf = (page: Page, name: string) => page.evaluate((n) => typeof (window as unknown as Record<string, unknown>)[n], name);
const loadedFrom = (o: Opened, url: string) => o.requests.filter((r) => bare(r).startsWith(url));
/** Which stand-in frame pages ran (their `/__ran` fetch names the page). */
const framesRan = (o: Opened, url: string) => o.requests.filter((r) => r.includes('/__ran?') && bare(decodeURIComponent(r.split('/__ran?')[1]!)).startsWith(url));
const vendorFrames = (o: Opened, url: string) => o.page.frames().filter((f) => bare(f.url()).startsWith(url));
/** Scrolls the frame whose `src` starts with `url` into view; false when there is none (runs in the page). */
const scrollToFrame = (url: string) => {
  const frame = [...document.querySelectorAll('iframe')].find((e) => (e.getAttribute('src') ?? '').replace(/^(https?:)?\/\//, '').startsWith(url));
  frame?.scrollIntoView();
  return frame !== undefined;
};
const runsOfFrames = (o: Opened) => Object.fromEntries(FRAMES.map((f) => [f.url, framesRan(o, f.url).length]));

/**
 * Nothing of any vendor runs: no stand-in global, none of the snippets' inline globals, no request at all but the
 * `src` of scripts and iframes written into the HTML (the preload scanner and the parser start those before any
 * script can see them: docs/widget.md, Blocking 1 and 4), frames in the HTML kept without an address (it is in
 * `data-ccm-blocked`, under the widget's overlay) and no vendor page in any frame, and frames that the vendors'
 * scripts build not even built.
 */
async function assertNothingRan(o: Opened) {
  for (const s of SCRIPTS) expect(await typeOf(o.page, s.global), `${s.name}: ${s.url} ran`).toBe('undefined');
  for (const g of INLINE) expect(await typeOf(o.page, g), `inline code defining ${g} ran`).toBe('undefined');
  const early = [...SCRIPTS.filter((s) => s.html).map((s) => s.url), ...FRAMES.filter((f) => f.html).map((f) => f.url)];
  const unexpected = o.requests.filter((r) => !early.some((u) => bare(r).startsWith(u)) && !(r.includes('/__ran?') && FRAMES.some((f) => f.html && decodeURIComponent(r).includes(f.url))));
  expect(unexpected, 'requests made by vendor code that must not have run').toEqual([]);
  for (const f of FRAMES) {
    const found = await o.page.evaluate(
      (u) => [...document.querySelectorAll('iframe')]
        .filter((e) => [e.getAttribute('src'), e.getAttribute('data-ccm-blocked')].some((a) => a && a.replace(/^(https?:)?\/\//, '').startsWith(u)))
        .map((e) => ({ src: e.getAttribute('src'), blocked: e.getAttribute('data-ccm-blocked') })),
      f.url,
    );
    if (f.html) {
      expect(found, f.name).toHaveLength(1);
      expect(found[0]!.src, f.name).toBeNull();
      expect(bare(found[0]!.blocked ?? ''), f.name).toMatch(new RegExp(`^${f.url.replace(/[.?*+^$()[\]{}|\\/]/g, '\\$&')}`));
    } else {
      expect(found, `${f.name}: its loader built the frame`).toEqual([]);
      expect(loadedFrom(o, f.url), f.name).toEqual([]);
    }
    expect(vendorFrames(o, f.url), f.name).toEqual([]);
  }
  expect(await o.page.locator('.ccm-blocked').count()).toBe(FRAMES.filter((f) => f.html).length);
}

describe('more real vendor snippets (analytics, pixels, chat, captcha, embeds) with embeddings from the catalogue', () => {
  it('the preset catalogue matches every script of the real snippets, the scripts their loaders load and the frames they build', () => {
    const misses: string[] = [];
    for (const [name, v] of ENTRIES) {
      const preset = presetOf(v);
      expect(preset, `${name}: no preset named ${v.preset}`).toBeDefined();
      for (const script of scriptsOf(v.snippet)) {
        if (v.free && script.includes(v.free)) {
          expect(matches(script, preset.scriptMarkers), `${name}: the free inline part`).toBe(false);
          continue;
        }
        if (!matches(script, preset.scriptMarkers)) misses.push(`${name}: script ${JSON.stringify(script.trim().slice(0, 80))} vs ${preset.scriptMarkers.join(', ')}`);
      }
      // What the loaders request once they run: matched too, so a scan or a strict-mode policy names it.
      for (const s of v.scripts) if (!matches(s.url, preset.scriptMarkers)) misses.push(`${name}: loaded ${s.url} vs ${preset.scriptMarkers.join(', ')}`);
      for (const f of v.frames ?? []) if (!matches(f.url, preset.iframeMarkers)) misses.push(`${name}: frame ${f.url} vs ${preset.iframeMarkers.join(', ')}`);
      // Addresses written into the snippet are the ones listed (the loaders' are built from parts of their text).
      for (const l of [...v.scripts, ...(v.frames ?? [])].filter((x) => x.html)) expect(v.snippet.replace(/&amp;/g, '&'), name).toContain(l.url);
    }
    expect(misses).toEqual([]);
    // The noscript pixels are not elements while scripting is on, so they need no marker; their hosts have one anyway.
    expect(matches('https://px.ads.linkedin.com/collect/?pid=1234567&fmt=gif', presetOf(VENDORS.linkedin!).scriptMarkers)).toBe(true);
  });

  it('runs nothing of any vendor before a decision and after "decline"; "accept all" runs each', async () => {
    const snippet = await setup();
    const o = await open(snippet);
    await assertNothingRan(o);
    // The free inline part ran (it only defines reCAPTCHA v3's click handler).
    expect(await typeOf(o.page, 'onClick')).toBe('function');
    const before = runsOfFrames(o);
    await widget(o.page).locator('button.d').click();
    await o.page.waitForTimeout(700);
    await assertNothingRan(o);
    expect(runsOfFrames(o)).toEqual(before);
    await o.context.close();

    const accepted = await open(snippet);
    await assertNothingRan(accepted);
    const ran = runsOfFrames(accepted);
    await widget(accepted.page).locator('button.a').click();
    for (const s of SCRIPTS) {
      await accepted.page.waitForFunction((g) => (window as unknown as Record<string, unknown>)[g] === true, s.global, { timeout: 15_000 }).catch(() => undefined);
      expect(await typeOf(accepted.page, s.global), `${s.name}: ${s.url} did not run`).toBe('boolean');
      expect(loadedFrom(accepted, s.url).length, s.name).toBeGreaterThanOrEqual(1);
    }
    for (const g of INLINE) expect(await typeOf(accepted.page, g), g).not.toBe('undefined');
    expect(await accepted.page.locator('.ccm-blocked').count()).toBe(0);
    // Generous waits, as in real-snippets.browser.test.ts: a cross-site frame needs a renderer process of its own.
    for (const f of FRAMES) {
      // The frame has its address back (or was built by its loader); scrolled to, as Spotify's is lazy.
      await expect.poll(() => accepted.page.evaluate(scrollToFrame, f.url), { timeout: 15_000, message: `${f.name}: no frame` }).toBe(true);
      await expect.poll(() => framesRan(accepted, f.url).length, { timeout: 45_000, message: f.name }).toBeGreaterThan(ran[f.url]!);
      expect(vendorFrames(accepted, f.url), f.name).toHaveLength(1);
    }
    await accepted.context.close();
  }, 150_000);
});

describe('strict mode (strictBlocking) with the same snippets', () => {
  it('no request at all to any vendor host before a decision, preloads and frames included; "accept all" runs each', async () => {
    const snippet = await setup(PRESET_NAMES, true);
    expect(snippet).toContain('http-equiv="Content-Security-Policy"');
    const o = await open(snippet);
    // Without strict mode the preload scanner fetches the scripts and the parser the frame written into the HTML
    // (assertNothingRan allows those); here nothing leaves the browser.
    expect(o.requests).toEqual([]);
    await assertNothingRan(o);
    const reloaded = o.page.waitForEvent('load');
    await widget(o.page).locator('button.a').click();
    await reloaded;
    for (const s of SCRIPTS) {
      await o.page.waitForFunction((g) => (window as unknown as Record<string, unknown>)[g] === true, s.global, { timeout: 15_000 }).catch(() => undefined);
      expect(await typeOf(o.page, s.global), `${s.name}: ${s.url} did not run`).toBe('boolean');
    }
    for (const f of FRAMES) {
      await expect.poll(() => o.page.evaluate(scrollToFrame, f.url), { timeout: 15_000, message: `${f.name}: no frame` }).toBe(true);
      await expect.poll(() => framesRan(o, f.url).length, { timeout: 45_000, message: f.name }).toBeGreaterThanOrEqual(1);
    }
    await o.context.close();
  }, 150_000);
});

describe("HubSpot's loader with consent to Analytics only (North American and EU data centres)", () => {
  const HUBSPOT_PRESETS = [...new Set(HUBSPOT_PARTS.map((p) => p.preset))];
  const page = (widgetSnippet: string) => `<!doctype html><html><head><meta charset="utf-8">${widgetSnippet}
${HUBSPOT}
${HUBSPOT_EU}
</head><body><h1>Blog</h1></body></html>`;

  it('the catalogue names every script the loader inserts, in either data centre, with the preset it belongs to', () => {
    const misses = HUBSPOT_PARTS.filter((p) => !matches(p.url, presetNamed(p.preset).scriptMarkers)).map((p) => `${p.url} (${p.preset})`);
    expect(misses).toEqual([]);
    // And none of another HubSpot preset, which would hold it back for the wrong purpose.
    for (const p of HUBSPOT_PARTS) {
      const others = HUBSPOT_PRESETS.filter((name) => name !== p.preset && matches(p.url, presetNamed(name).scriptMarkers));
      expect(others, p.url).toEqual([]);
    }
  });

  it('runs the loader and its analytics script, not the forms capture, ads pixel or chat it inserts', async () => {
    const snippet = await setup(HUBSPOT_PRESETS);
    const o = await open(snippet, page);
    for (const g of ['__ran_hubspot', '__ran_hubspot_eu', ...HUBSPOT_PARTS.map((p) => p.global)]) expect(await typeOf(o.page, g), g).toBe('undefined');
    await acceptOnlyPurpose(o.page, 'Analytics');
    const analytics = HUBSPOT_PARTS.filter((p) => p.preset === 'HubSpot Analytics');
    for (const g of ['__ran_hubspot', '__ran_hubspot_eu', ...analytics.map((p) => p.global)]) {
      await o.page.waitForFunction((n) => (window as unknown as Record<string, unknown>)[n] === true, g, { timeout: 15_000 }).catch(() => undefined);
      expect(await typeOf(o.page, g), `${g} did not run`).toBe('boolean');
    }
    await o.page.waitForTimeout(700);
    for (const p of HUBSPOT_PARTS.filter((x) => x.preset !== 'HubSpot Analytics')) {
      expect(await typeOf(o.page, p.global), `${p.url} (${p.preset}) ran with consent to Analytics only`).toBe('undefined');
      // Inserted by the loader, blocked before insertion: never requested.
      expect(loadedFrom(o, p.url), p.url).toEqual([]);
    }
    await o.context.close();
  }, 60_000);
});

/**
 * A library written into the page with `<script src>` and an inline call that needs it, each as the vendor documents
 * it. Both must be claimed: the library alone leaves the call to run before consent and fail (its library is
 * blocked), so on the page where the visitor consents the library loads and does nothing (the next page runs both);
 * nothing claimed Google's loader at all.
 * Google Fonts' own embed code (fonts.google.com) is a `<link rel="stylesheet">`, which the widget does not block
 * (docs/widget.md, "What is not blocked"); fonts loaded by a script are blocked with it.
 */
describe('a library and the inline call that needs it (web fonts, analytics, a form, video players, a map, a social SDK)', () => {
  const LIBRARIES = [
    {
      // developers.google.com/fonts/docs/webfont_loader
      preset: 'Google Fonts', name: 'webfont', url: 'ajax.googleapis.com/ajax/libs/webfont/1.6.26/webfont.js', api: 'WebFont',
      library: `window.WebFont={load:function(){window.__called_webfont=true;var l=document.createElement('link');l.rel='stylesheet';l.href='https://fonts.googleapis.com/css?family=Droid+Sans|Droid+Serif';document.head.appendChild(l);}};`,
      snippet: `<script src="https://ajax.googleapis.com/ajax/libs/webfont/1.6.26/webfont.js"></script>
<script>
  WebFont.load({
    google: {
      families: ['Droid Sans', 'Droid Serif']
    }
  });
</script>`,
    },
    {
      // Adobe Fonts' earlier JavaScript kit code, still on many sites.
      preset: 'Adobe Fonts', name: 'typekit', url: 'use.typekit.net/abc1def.js', api: 'Typekit',
      library: `window.Typekit={load:function(){window.__called_typekit=true;}};`,
      snippet: `<script src="https://use.typekit.net/abc1def.js"></script>
<script>try{Typekit.load({ async: true });}catch(e){}</script>`,
    },
    {
      // Datadog RUM, "CDN sync" (docs.datadoghq.com/real_user_monitoring/browser/setup/client), EU site.
      preset: 'Datadog Real User Monitoring', name: 'datadog', url: 'www.datadoghq-browser-agent.com/eu1/v5/datadog-rum.js', api: 'DD_RUM',
      library: `window.DD_RUM={init:function(){window.__called_datadog=true;}};`,
      snippet: `<script
    src="https://www.datadoghq-browser-agent.com/eu1/v5/datadog-rum.js"
    type="text/javascript">
</script>
<script>
    window.DD_RUM &&
    window.DD_RUM.init({
      clientToken: 'pub0123456789abcdef0123456789abcdef',
      applicationId: '01234567-89ab-cdef-0123-456789abcdef',
      site: 'datadoghq.eu',
      service: 'shop',
      sessionSampleRate: 100,
      sessionReplaySampleRate: 20,
      defaultPrivacyLevel: 'mask-user-input',
    });
</script>`,
    },
    {
      // Amplitude's Browser SDK 2 script loader as its setup page hands it out.
      preset: 'Amplitude', name: 'amplitude', url: 'cdn.amplitude.com/script/0123456789abcdef0123456789abcdef.js', api: 'amplitude',
      library: `window.amplitude={add:function(){},init:function(){window.__called_amplitude=true;}};window.sessionReplay={plugin:function(){return {};}};`,
      snippet: `<script src="https://cdn.amplitude.com/script/0123456789abcdef0123456789abcdef.js"></script><script>window.amplitude.add(window.sessionReplay.plugin({sampleRate: 1}));window.amplitude.init('0123456789abcdef0123456789abcdef', {"fetchRemoteConfig":true,"autocapture":true});</script>`,
    },
    {
      // Vimeo's player SDK as its README shows it (github.com/vimeo/player.js): the embed, the SDK, and code that drives
      // the player. The frame is blocked by its own marker (its navigation may start before the widget sees it).
      preset: 'Vimeo', name: 'vimeo', url: 'player.vimeo.com/api/player.js', api: 'Vimeo', frame: 'player.vimeo.com/video/76979871',
      library: `window.Vimeo={Player:function(){window.__called_vimeo=true;this.on=function(){};this.getVideoTitle=function(){return Promise.resolve('');};}};`,
      snippet: `<iframe src="https://player.vimeo.com/video/76979871?h=8272103f6e" width="640" height="360" frameborder="0" allowfullscreen allow="autoplay; encrypted-media"></iframe>

<script src="https://player.vimeo.com/api/player.js"></script>
<script>
    const iframe = document.querySelector('iframe');
    const player = new Vimeo.Player(iframe);

    player.on('play', function() {
        console.log('played the video!');
    });

    player.getVideoTitle().then(function(title) {
        console.log('title:', title);
    });
</script>`,
    },
    {
      // Mapbox GL JS, "Display a map on a webpage" (docs.mapbox.com); its stylesheet is a <link>, not blocked.
      preset: 'Mapbox', name: 'mapbox', url: 'api.mapbox.com/mapbox-gl-js/v3.8.0/mapbox-gl.js', api: 'mapboxgl', early: 'api.mapbox.com/mapbox-gl-js/v3.8.0/mapbox-gl.css',
      library: `window.mapboxgl={Map:function(){window.__called_mapbox=true;}};`,
      snippet: `<link href="https://api.mapbox.com/mapbox-gl-js/v3.8.0/mapbox-gl.css" rel="stylesheet">
<script src="https://api.mapbox.com/mapbox-gl-js/v3.8.0/mapbox-gl.js"></script>
<div id="map" style="width: 400px; height: 300px;"></div>
<script>
	mapboxgl.accessToken = 'pk.eyJ1IjoiZXhhbXBsZSIsImEiOiJjbGV4YW1wbGUifQ.abcdefghijklmnopqrstuv';
    const map = new mapboxgl.Map({
        container: 'map', // container ID
        center: [-74.5, 40], // starting position [lng, lat]
        zoom: 9 // starting zoom
    });
</script>`,
    },
    {
      // HubSpot's embedded form (Marketing → Forms → Share → Embed code), EU data centre.
      preset: 'HubSpot Forms and Marketing', name: 'hubspot_forms', url: 'js-eu1.hsforms.net/forms/embed/v2.js', api: 'hbspt',
      library: `window.hbspt={forms:{create:function(){window.__called_hubspot_forms=true;}}};`,
      snippet: `<script charset="utf-8" type="text/javascript" src="//js-eu1.hsforms.net/forms/embed/v2.js"></script>
<script>
  hbspt.forms.create({
    region: "eu1",
    portalId: "7654321",
    formId: "01234567-89ab-cdef-0123-456789abcdef"
  });
</script>`,
    },
    {
      // Meta's JavaScript SDK quickstart (developers.facebook.com/docs/javascript/quickstart) on a French site: the
      // page's init function first, then the SDK, whose address names the locale and has no `#xfbml` to go by. Only
      // `en_US` and `de_DE` were claimed until 2026-11-28.
      preset: 'Facebook Social Plugins', name: 'facebook', url: 'connect.facebook.net/fr_FR/sdk.js', api: 'FB',
      library: `window.FB={init:function(){window.__called_facebook=true;}};window.fbAsyncInit&&window.fbAsyncInit();`,
      snippet: `<script>
  window.fbAsyncInit = function() {
    FB.init({
      appId            : '1234567890123456',
      xfbml            : true,
      version          : 'v21.0'
    });
  };
</script>
<script async defer crossorigin="anonymous" src="https://connect.facebook.net/fr_FR/sdk.js"></script>`,
    },
    {
      // Adobe Analytics with AppMeasurement.js (experienceleague.adobe.com, "Implement Adobe Analytics with JavaScript"),
      // the library downloaded from Adobe and served by the site's CDN, the tracking server configured inside it.
      preset: 'Adobe Analytics', name: 'adobe', url: 'static.shop-cdn.example/js/AppMeasurement.js', api: 's_gi',
      library: `window.s_gi=function(){return {t:function(){window.__called_adobe=true;}};};`,
      snippet: `<script src="https://static.shop-cdn.example/js/AppMeasurement.js"></script>
<script>
  var s = s_gi("examplersid");
  s.pageName = "Home page";
  s.t();
</script>`,
    },
  ];
  const page = (widgetSnippet: string) => `<!doctype html><html><head><meta charset="utf-8">${widgetSnippet}
${LIBRARIES.map((l) => l.snippet).join('\n')}
</head><body><h1>Shop</h1></body></html>`;

  /** A library's stand-in, a frame's stand-in page, and a stylesheet for everything else. */
  const answer = (route: Route) => {
    const library = LIBRARIES.find((l) => bare(route.request().url()) === l.url);
    if (library) return route.fulfill({ status: 200, contentType: 'text/javascript', body: library.library });
    if (route.request().resourceType() === 'document') return route.fulfill({ status: 200, contentType: 'text/html', body: STAND_IN_PAGE });
    return route.fulfill({ status: 200, contentType: 'text/css', body: 'h1{color:#123456}' });
  };
  const opened = (snippet: string) => open(snippet, page, answer);

  /** No library ran and no call reached one; nothing was requested but the libraries' own `src` (the preload scanner's). */
  async function nothingRan(o: Opened) {
    for (const l of LIBRARIES) {
      expect(await typeOf(o.page, l.api), `${l.preset}: its library ran`).toBe('undefined');
      expect(await typeOf(o.page, `__called_${l.name}`), `${l.preset}: its call ran`).toBe('undefined');
    }
    // Also allowed: what the HTML itself names, which the browser requests before any script runs (a frame's `src`, a
    // stylesheet: docs/widget.md, Blocking 4 and "What is not blocked"), and, as in the suite above, the frame stand-in's
    // `/__ran` if its document got to run in the instant before the widget took the frame's address (Blocking 4).
    const early = (r: string) =>
      LIBRARIES.some((l) => bare(r) === l.url || [l.frame, l.early].some((u) => u && (bare(r).startsWith(u) || (r.includes('/__ran?') && decodeURIComponent(r).includes(u)))));
    expect(o.requests.filter((r) => !early(r))).toEqual([]);
  }

  it('the catalogue claims both scripts of each snippet', () => {
    for (const l of LIBRARIES) {
      const markers = presetNamed(l.preset).scriptMarkers;
      for (const script of scriptsOf(l.snippet)) expect(matches(script, markers), `${l.preset}: ${script.trim().slice(0, 60)}`).toBe(true);
    }
  });

  it('runs none before a decision or after "decline"; after "accept all" each library runs, then its call', async () => {
    const snippet = await setup(LIBRARIES.map((l) => l.preset));
    const declined = await opened(snippet);
    await nothingRan(declined);
    await widget(declined.page).locator('button.d').click();
    await declined.page.waitForTimeout(700);
    await nothingRan(declined);
    await declined.context.close();

    const accepted = await opened(snippet);
    await nothingRan(accepted);
    await widget(accepted.page).locator('button.a').click();
    for (const l of LIBRARIES) {
      // The call reaches its library only when it ran after it, in the page's order.
      await accepted.page.waitForFunction((g) => (window as unknown as Record<string, unknown>)[g] === true, `__called_${l.name}`, { timeout: 15_000 }).catch(() => undefined);
      expect(await typeOf(accepted.page, `__called_${l.name}`), `${l.preset}: its call did not run after consent`).toBe('boolean');
    }
    // The font loader's stylesheet, requested once the call ran, and applied.
    expect(accepted.requests.filter((r) => bare(r).startsWith('fonts.googleapis.com/css'))).toHaveLength(1);
    expect(await accepted.page.evaluate(() => getComputedStyle(document.querySelector('h1')!).color)).toBe('rgb(18, 52, 86)');
    await accepted.context.close();
  }, 60_000);
  it("Contact Form 7's reCAPTCHA v3 integration: its module waits with Google's script, and the form gets its token on the consenting page", async () => {
    // What Contact Form 7 (5.x, reCAPTCHA integration set up) prints in a WordPress page's footer: Google's api.js
    // with the site key, WordPress's polyfill, the module's settings, then the module, whose code waits for
    // DOMContentLoaded, then for grecaptcha.ready, and puts a fresh token into each form's hidden
    // `_wpcf7_recaptcha_response` field (the server refuses a submission without one as spam).
    const KEY = '6LcZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ';
    const footer = `<div class="wpcf7"><form class="wpcf7-form" method="post">
<input type="hidden" name="_wpcf7_recaptcha_response" value="">
<p><input type="email" name="your-email"></p><p><input type="submit" value="Send"></p></form></div>
<script src="https://www.google.com/recaptcha/api.js?render=${KEY}&amp;ver=3.0" id="google-recaptcha-js"></script>
<script src="/wp-includes/js/dist/vendor/wp-polyfill.min.js?ver=3.15.0" id="wp-polyfill-js"></script>
<script id="wpcf7-recaptcha-js-before">
var wpcf7_recaptcha = {"sitekey":"${KEY}","actions":{"homepage":"homepage","contactform":"contactform"}};
</script>
<script src="/wp-content/plugins/contact-form-7/modules/recaptcha/index.js?ver=5.9.8" id="wpcf7-recaptcha-js"></script>`;
    // A stand-in with the module's shape (not its code): everything happens in a DOMContentLoaded listener.
    site.setPage('/wp-content/plugins/contact-form-7/modules/recaptcha/index.js', `document.addEventListener('DOMContentLoaded', function () {
  var settings = wpcf7_recaptcha;
  var execute = function (action) {
    grecaptcha.execute(settings.sitekey, { action: action }).then(function (token) {
      document.querySelectorAll('form.wpcf7-form').forEach(function (form) {
        form.querySelectorAll('input[name="_wpcf7_recaptcha_response"]').forEach(function (input) { input.value = token; });
      });
    });
  };
  grecaptcha.ready(function () { execute(settings.actions.homepage); });
  document.addEventListener('change', function () { execute(settings.actions.contactform); });
});`, { 'content-type': 'text/javascript' });
    // What Google's api.js defines for v3.
    const api = 'window.grecaptcha={ready:function(f){setTimeout(f);},execute:function(k,o){return Promise.resolve("token-"+o.action+"-"+k.slice(0,5));}};';
    const snippet = await setup(['Google reCAPTCHA']);
    const { context, page: p, errors } = await open(
      snippet,
      (widgetSnippet) => `<!doctype html><html><head><meta charset="utf-8">${widgetSnippet}</head><body><h1>Contact</h1>${footer}</body></html>`,
      (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: bare(route.request().url()).startsWith('www.google.com/recaptcha/api.js?') ? api : '' }),
    );
    const token = () => p.evaluate(() => document.querySelector<HTMLInputElement>('input[name="_wpcf7_recaptcha_response"]')!.value);
    // Before consent the module waits with Google's script, so it cannot fail on a missing `grecaptcha` either.
    expect(await typeOf(p, 'grecaptcha')).toBe('undefined');
    expect(errors).toEqual([]);
    expect(await token()).toBe('');
    await widget(p).locator('button.a').click();
    await p.waitForFunction(() => document.querySelector<HTMLInputElement>('input[name="_wpcf7_recaptcha_response"]')!.value !== '', undefined, { timeout: 15_000 }).catch(() => undefined);
    expect(await token(), 'the form got no token on the consenting page').toBe('token-homepage-6LcZZ');
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
  it("Google Maps' long-documented simple map (addDomListener(window, 'load', …)): the page's code waits with the API, and the map is drawn on the consenting page", async () => {
    // The "simple map" sample of the Maps JavaScript API v3 documentation until 2018, still on many sites: the API's
    // script tag, then inline code that uses `google.maps` and draws the map once the window's load has fired.
    const sample = `<div id="map-canvas" style="height:300px"></div>
<script src="https://maps.googleapis.com/maps/api/js?key=AIzaSyXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"></script>
<script>
function initialize() {
  var mapOptions = {
    zoom: 8,
    center: new google.maps.LatLng(-34.397, 150.644)
  };
  var map = new google.maps.Map(document.getElementById('map-canvas'),
      mapOptions);
}

google.maps.event.addDomListener(window, 'load', initialize);
</script>`;
    // What the API defines: addDomListener is the DOM's addEventListener on the given target.
    const api = 'window.google={maps:{LatLng:function(){},Map:function(){window.__map_built=(window.__map_built||0)+1;},event:{addDomListener:function(t,e,f,c){t.addEventListener(e,f,!!c);return{remove:function(){t.removeEventListener(e,f,!!c);}};}}}};';
    const snippet = await setup(['Google Maps']);
    const { context, page: p, errors } = await open(
      snippet,
      (widgetSnippet) => `<!doctype html><html><head><meta charset="utf-8">${widgetSnippet}</head><body>${sample}</body></html>`,
      (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: bare(route.request().url()).startsWith('maps.googleapis.com/maps/api/js?') ? api : '' }),
    );
    // Before consent the inline code waits with the API (it names `google.maps.`), so it cannot fail on a missing
    // `google` either.
    expect(await typeOf(p, 'google')).toBe('undefined');
    expect(errors).toEqual([]);
    await widget(p).locator('button.a').click();
    await p.waitForFunction(() => (window as unknown as Record<string, unknown>).__map_built === 1, undefined, { timeout: 15_000 }).catch(() => undefined);
    expect(await typeOf(p, '__map_built'), 'the map was not drawn on the consenting page').toBe('number');
    await p.waitForTimeout(300);
    expect(await p.evaluate(() => (window as unknown as Record<string, unknown>).__map_built)).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
  it("Calendly's badge widget (`window.onload = …` next to its async script): the code waits with the script, and the badge appears on the consenting page", async () => {
    // Calendly: Share → "Add to website" → Popup widget → badge, as handed out: the script is async, and the inline
    // code assigns `window.onload`, which the browser calls once every script (the async one too) has run.
    const badge = `<!-- Calendly badge widget begin -->
<link href="https://assets.calendly.com/assets/external/widget.css" rel="stylesheet">
<script src="https://assets.calendly.com/assets/external/widget.js" type="text/javascript" async></script>
<script type="text/javascript">window.onload = function() { Calendly.initBadgeWidget({ url: 'https://calendly.com/your-name', text: 'Schedule time with me', color: '#0069ff', textColor: '#ffffff', branding: undefined }); }</script>
<!-- Calendly badge widget end -->`;
    // A stand-in with the script's shape: it defines `Calendly`, and the badge is an element in the page.
    const library = `window.Calendly={initBadgeWidget:function(o){var d=document.createElement('div');d.className='calendly-badge-widget';d.textContent=o.text;document.body.appendChild(d);window.__badges=(window.__badges||0)+1;}};`;
    const snippet = await setup(['Calendly']);
    const { context, page: p, errors } = await open(
      snippet,
      (widgetSnippet) => `<!doctype html><html><head><meta charset="utf-8">${widgetSnippet}</head><body><h1>Book a call</h1>${badge}</body></html>`,
      // The script arrives late (400 ms), so the copy of the inline code has run long before it.
      async (route) => {
        const url = bare(route.request().url());
        const script = url.startsWith('assets.calendly.com/assets/external/widget.js');
        if (script) await new Promise((r) => setTimeout(r, 400));
        await route.fulfill({ status: 200, contentType: script ? 'text/javascript' : 'text/css', body: script ? library : '' }).catch(() => undefined);
      },
    );
    // Before consent the inline code waits with the script (it names `Calendly.init…`), so the page's load cannot call
    // it and fail on a missing `Calendly` either.
    await p.waitForLoadState('load');
    await p.waitForTimeout(300);
    expect(await typeOf(p, 'Calendly')).toBe('undefined');
    expect(await p.evaluate(() => window.onload)).toBeNull();
    expect(errors).toEqual([]);
    await widget(p).locator('button.a').click();
    await p.waitForFunction(() => (window as unknown as Record<string, unknown>).__badges === 1, undefined, { timeout: 15_000 }).catch(() => undefined);
    expect(await p.locator('.calendly-badge-widget').count(), 'no badge on the consenting page').toBe(1);
    // The page's own `window.onload`, assigned after load, keeps the browser's behaviour: it is not called.
    await p.evaluate(() => {
      window.onload = () => ((window as unknown as Record<string, unknown>).__own = true);
    });
    await p.waitForTimeout(300);
    expect(await typeOf(p, '__own')).toBe('undefined');
    expect(await p.evaluate(() => (window as unknown as Record<string, unknown>).__badges)).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
  it("Google Maps' dynamic library import: the loader its bootstrap inserts waits for consent, then the map's code resumes", async () => {
    // developers.google.com/maps/documentation/javascript/load-maps-js-api ("Use dynamic library import"), then the
    // "Add a map" sample. The bootstrap names the API's host only in parts (`maps.${c}apis.com`), so it runs; the
    // script it inserts when the page asks for a library is what the Google Maps preset blocks.
    const bootstrap = `<script>
  (g=>{var h,a,k,p="The Google Maps JavaScript API",c="google",l="importLibrary",q="__ib__",m=document,b=window;b=b[c]||(b[c]={});var d=b.maps||(b.maps={}),r=new Set,e=new URLSearchParams,u=()=>h||(h=new Promise(async(f,n)=>{await (a=m.createElement("script"));e.set("libraries",[...r]+"");for(k in g)e.set(k.replace(/[A-Z]/g,t=>"_"+t[0].toLowerCase()),g[k]);e.set("callback",c+".maps."+q);a.src=\`https://maps.\${c}apis.com/maps/api/js?\`+e;d[q]=f;a.onerror=()=>h=n(Error(p+" could not load."));a.nonce=m.querySelector("script[nonce]")?.nonce||"";m.head.append(a)}));d[l]?console.warn(p+" only loads once. Ignoring:",g):d[l]=(f,...n)=>r.add(f)&&u().then(()=>d[l](f,...n))})({
    key: "AIzaSyXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    v: "weekly",
  });
</script>`;
    const sample = `<div id="map" style="height:300px"></div>
<script>
let map;

async function initMap() {
  const { Map } = await google.maps.importLibrary("maps");

  map = new Map(document.getElementById("map"), {
    center: { lat: -34.397, lng: 150.644 },
    zoom: 8,
  });
}

initMap();
</script>`;
    // What the API does when it arrives: replaces importLibrary and calls the bootstrap's callback.
    const api = 'google.maps.importLibrary=function(){return Promise.resolve({Map:function(){window.__map_built=true;}});};google.maps.__ib__();';
    const snippet = await setup(['Google Maps']);
    const { context, page: p, requests } = await open(
      snippet,
      (widgetSnippet) => `<!doctype html><html><head><meta charset="utf-8">${widgetSnippet}${bootstrap}</head><body>${sample}</body></html>`,
      (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: bare(route.request().url()).startsWith('maps.googleapis.com/maps/api/js?') ? api : '' }),
    );
    expect(requests).toEqual([]);
    expect(await typeOf(p, '__map_built')).toBe('undefined');
    // The bootstrap ran (it only defines importLibrary), and the page's call is waiting on it.
    expect(await p.evaluate(() => typeof (window as unknown as { google: { maps: { importLibrary: unknown } } }).google.maps.importLibrary)).toBe('function');
    await widget(p).locator('button.a').click();
    await p.waitForFunction(() => (window as unknown as Record<string, unknown>).__map_built === true, undefined, { timeout: 15_000 }).catch(() => undefined);
    expect(await typeOf(p, '__map_built')).toBe('boolean');
    expect(requests.map(bare)).toEqual([expect.stringMatching(/^maps\.googleapis\.com\/maps\/api\/js\?libraries=maps&key=AIzaSyX+&v=weekly&callback=google\.maps\.__ib__$/)]);
    await context.close();
  }, 60_000);
});

/**
 * Google's tags served from the site's own tagging server (server-side Tag Manager), as Google documents it and as
 * agencies set it up: the web container's snippet with `www.googletagmanager.com` replaced by the tagging server's
 * host (a subdomain, or a path of the site itself: developers.google.com/tag-platform/tag-manager/server-side,
 * "Custom domain configuration" and "Google tag gateway for advertisers"), gtag.js from the same server, and Stape's
 * custom loader (its WordPress plugin "GTM Server Side" prints it), which requests gtm.js under a name of its own,
 * and Addingwell's, whose address names nothing a marker could match; and Segment's snippet with Analytics.js proxied
 * through the site's CDN. The catalogue named only the vendors' hosts, so all six ran before consent.
 */
describe("tags served from the site's own domain (server-side Tag Manager, Stape's and Addingwell's loaders, Segment's proxy)", () => {
  const TAGGING = 'metrics.shop.example';
  // The web container snippet (Tag Manager → Admin → Install), its script's host changed to the tagging server's.
  const gtmFrom = (base: string, id: string) => `<!-- Google Tag Manager -->
<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':
new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],
j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src=
'${base}/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);
})(window,document,'script','dataLayer','${id}');</script>
<!-- End Google Tag Manager -->`;
  // The Google tag (gtag.js) for GA4, loaded from the tagging server.
  const GTAG = `<!-- Google tag (gtag.js) -->
<script async src="https://${TAGGING}/gtag/js?id=G-SST1234567"></script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  gtag('js', new Date());
  gtag('config', 'G-SST1234567');
</script>`;
  // The shape of Stape's custom loader: minified, the container id inside the address, the file named by the loader's
  // identifier, `gtm.start` pushed as the container expects it.
  const STAPE = `<!-- GTM Container Loader -->
<script>!function(){"use strict";!function(e,t,n,a,o){e[a]=e[a]||[],e[a].push({"gtm.start":(new Date).getTime(),event:"gtm.js"});var r=t.getElementsByTagName(n)[0],s=t.createElement(n);s.async=!0,s.src="https://load.ss.shop.example/"+o+".js?id=GTM-STP4567",r.parentNode.insertBefore(s,r)}(window,document,"script","dataLayer","qwertzui")}();</script>`;
  // Addingwell's web container snippet: its own file name, the id without its `GTM-` prefix. No marker can name this
  // address; the loader's inline code (`gtm.start`) is what holds it back.
  const ADDINGWELL = `<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':
new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],
j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src=
'https://tracking.shop.example/x7k2p9.js?awl='+i.replace(/^GTM-/, '')+dl;f.parentNode.insertBefore(j,f);
})(window,document,'script','dataLayer','GTM-AWL7890');</script>`;
  const SCRIPTS_SST = [
    { url: `${TAGGING}/gtm.js?id=GTM-SST1234`, global: '__ran_sgtm_subdomain', preset: 'Google Tag Manager' },
    { url: `${TAGGING}/gtag/js?id=G-SST1234567`, global: '__ran_sgtm_gtag', preset: 'Google Analytics 4', html: true },
    { url: 'load.ss.shop.example/qwertzui.js?id=GTM-STP4567', global: '__ran_stape', preset: 'Google Tag Manager' },
    { url: 'tracking.shop.example/x7k2p9.js?awl=AWL7890', global: '__ran_addingwell', preset: 'Google Tag Manager', unnamed: true },
    { url: 'cdn.shop.example/analytics.js/v1/ZyXwVuTsRqPoNmLkJiHgFeDcBa987654/analytics.min.js', global: '__ran_segment_proxy', preset: 'Segment' },
  ];
  // Segment's snippet with Analytics.js proxied through the site's own CDN (see `segment` above).
  const SEGMENT_PROXY = segment('cdn.shop.example', 'ZyXwVuTsRqPoNmLkJiHgFeDcBa987654', 'analytics.load("ZyXwVuTsRqPoNmLkJiHgFeDcBa987654", { integrations: { "Segment.io": { apiHost: "api.shop.example/v1" } } });');
  const PRESETS_SST = ['Google Tag Manager', 'Google Analytics 4', 'Segment'];
  const SAME_ORIGIN = '/metrics/gtm.js';
  const page = (widgetSnippet: string) => `<!doctype html><html><head><meta charset="utf-8">${widgetSnippet}
${gtmFrom(`https://${TAGGING}`, 'GTM-SST1234')}
${gtmFrom(`${site.url}/metrics`, 'GTM-SAME123')}
${GTAG}
${STAPE}
${ADDINGWELL}
${SEGMENT_PROXY}
</head><body><h1>Shop</h1></body></html>`;
  const answer = (route: Route) => {
    const script = SCRIPTS_SST.find((s) => bare(route.request().url()).startsWith(s.url));
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: script ? `window.${script.global} = true;` : '' });
  };
  /** The same-origin container is served by the test site, whose unknown scripts push their path to `window.ran`. */
  const sameOriginRan = (p: Page) => p.evaluate((path) => ((window as unknown as { ran?: string[] }).ran ?? []).includes(path), SAME_ORIGIN);
  const sameOriginHits = () => site.hits.filter((h) => h.startsWith(SAME_ORIGIN)).length;

  it('the catalogue claims each snippet, inline code and loaded script alike, for its preset', () => {
    const misses: string[] = [];
    const claims = (preset: string, s: string) => matches(s, presetNamed(preset).scriptMarkers);
    for (const [snippet, preset] of [[gtmFrom(`https://${TAGGING}`, 'GTM-SST1234'), 'Google Tag Manager'], [gtmFrom('https://www.shop.example/metrics', 'GTM-SAME123'), 'Google Tag Manager'], [GTAG.split('<script>')[0]!, 'Google Analytics 4'], [STAPE, 'Google Tag Manager'], [ADDINGWELL, 'Google Tag Manager'], [SEGMENT_PROXY, 'Segment']] as const) {
      for (const script of scriptsOf(snippet)) if (!claims(preset, script)) misses.push(`${preset}: ${script.trim().slice(0, 90)}`);
    }
    for (const s of [...SCRIPTS_SST.filter((x) => !x.unnamed), { url: `www.shop.example${SAME_ORIGIN}?id=GTM-SAME123`, preset: 'Google Tag Manager' }]) if (!claims(s.preset, s.url)) misses.push(`${s.preset}: ${s.url}`);
    // The container's frame for visitors without JavaScript, from the tagging server (a frame only where scripting is off).
    if (!matches(`https://${TAGGING}/ns.html?id=GTM-SST1234`, presetNamed('Google Tag Manager').iframeMarkers)) misses.push('ns.html');
    expect(misses).toEqual([]);
    // The inline gtag configuration only queues commands; it names nothing to block and may run.
    expect(matches(GTAG.split('</script>')[1]!, presetNamed('Google Analytics 4').scriptMarkers)).toBe(false);
  });

  it('nothing runs or is requested before a decision and after "decline" (but the preload of gtag.js written into the HTML); "accept all" runs each', async () => {
    const snippet = await setup(PRESETS_SST);
    const hitsBefore = sameOriginHits();
    const o = await open(snippet, page, answer);
    const nothing = async (x: Opened, what: string) => {
      for (const s of SCRIPTS_SST) expect(await typeOf(x.page, s.global), `${what}: ${s.url} ran`).toBe('undefined');
      expect(x.requests.filter((r) => !bare(r).startsWith(SCRIPTS_SST[1]!.url)), `${what}: requests of code that must not have run`).toEqual([]);
      expect(await sameOriginRan(x.page), `${what}: ${SAME_ORIGIN} ran`).toBe(false);
      expect(sameOriginHits() - hitsBefore, `${what}: ${SAME_ORIGIN} requested`).toBe(0);
    };
    await nothing(o, 'before a decision');
    await widget(o.page).locator('button.d').click();
    await o.page.waitForTimeout(700);
    await nothing(o, 'after "decline"');
    await o.context.close();

    const accepted = await open(snippet, page, answer);
    await nothing(accepted, 'before "accept all"');
    await widget(accepted.page).locator('button.a').click();
    for (const s of SCRIPTS_SST) {
      await accepted.page.waitForFunction((g) => (window as unknown as Record<string, unknown>)[g] === true, s.global, { timeout: 15_000 }).catch(() => undefined);
      expect(await typeOf(accepted.page, s.global), `${s.url} did not run`).toBe('boolean');
    }
    await expect.poll(() => sameOriginRan(accepted.page), { timeout: 15_000, message: `${SAME_ORIGIN} did not run` }).toBe(true);
    // Each container once: the loaders ran once, after consent.
    for (const s of SCRIPTS_SST.filter((x) => !x.html)) expect(accepted.requests.filter((r) => bare(r).startsWith(s.url)), s.url).toHaveLength(1);
    expect(sameOriginHits() - hitsBefore).toBe(1);
    await accepted.context.close();
  }, 60_000);
  it('strict mode, with the tagging hosts added to the embeddings as markers: no request at all before consent, each runs after "accept all"', async () => {
    const { base, embeddings } = await presetDomain(hosting, appUrl, `http://127.0.0.1:${site.port}`, PRESETS_SST);
    const addHosts = async (preset: string, hosts: string[]) => {
      const url = `${base}/embedding/${embeddings[preset]}`;
      const markers = (await hosting('GET', url)).scriptMarkers as string[];
      expect((await hosting('PUT', url, { scriptMarkers: [...markers, ...hosts] })).scriptMarkers).toEqual(expect.arrayContaining(hosts));
    };
    await addHosts('Google Tag Manager', [TAGGING, 'load.ss.shop.example', 'tracking.shop.example']);
    await addHosts('Google Analytics 4', [TAGGING]);
    await addHosts('Segment', ['cdn.shop.example']);
    expect((await hosting('PUT', base, { strictBlocking: true })).strictBlocking).toBe(true);
    const snippet = ((await hosting('GET', `${base}/onboarding/embed`)).default as string).replace(/&amp;/g, '&');
    const hitsBefore = sameOriginHits();
    const o = await open(snippet, page, answer);
    // Not even the preload of the gtag.js written into the HTML.
    expect(o.requests).toEqual([]);
    for (const s of SCRIPTS_SST) expect(await typeOf(o.page, s.global), `${s.url} ran`).toBe('undefined');
    expect(sameOriginHits() - hitsBefore).toBe(0);
    const reloaded = o.page.waitForEvent('load');
    await widget(o.page).locator('button.a').click();
    await reloaded;
    for (const s of SCRIPTS_SST) {
      await o.page.waitForFunction((g) => (window as unknown as Record<string, unknown>)[g] === true, s.global, { timeout: 15_000 }).catch(() => undefined);
      expect(await typeOf(o.page, s.global), `${s.url} did not run`).toBe('boolean');
    }
    await expect.poll(() => sameOriginRan(o.page), { timeout: 15_000, message: `${SAME_ORIGIN} did not run` }).toBe(true);
    await o.context.close();
  }, 60_000);
});

/**
 * WordPress performance plugins that delay scripts and frames and start them in place, on a page with the widget first
 * in <head> (excluded from the delay, as every consent tool must be). WP Rocket's "Delay JavaScript execution" prints
 * each script as `type="rocketlazyloadscript"` with `data-rocket-src`, and on the visitor's first interaction (a mouse
 * move is enough) runs them one by one; in Chromium its loader (RocketLazyLoadScripts 1.2.x, read in public sites'
 * pages) does it in place: it takes the type away (or restores `data-rocket-type`), sets `src` to the address, or to a
 * `data:` URL of an inline script's text, and waits for the element's `load` or `error`. Its LazyLoad gives frames
 * `src="about:blank"` and `data-lazy-src`, set in place when the frame comes into view (vanilla-lazyload);
 * LiteSpeed Cache sets `data-litespeed-src` frames' `src` on the first interaction. The loaders below do exactly those
 * steps. The widget saw none of it: such a script or frame is in the page with an inert type or address, and it
 * watched insertions only.
 */
describe('scripts and frames that performance plugins start in place (WP Rocket, LiteSpeed Cache)', () => {
  const GTAG = 'www.googletagmanager.com/gtag/js?id=G-WPR1234567';
  const GTM = 'www.googletagmanager.com/gtm.js?id=GTM-WPR1234';
  const YT_LAZY = 'www.youtube.com/embed/wprLazy123';
  const YT_LSC = 'www.youtube.com/embed/lscDelay456';
  const OWN = '/wp-content/themes/shop/menu.js';
  // WP Rocket's markup for a site with the Google tag (Site Kit), Tag Manager and the theme's own script.
  const page = (widgetSnippet: string) => `<!doctype html><html><head><meta charset="utf-8">${widgetSnippet}
<script type="rocketlazyloadscript" async data-rocket-src="https://${GTAG}"></script>
<script type="rocketlazyloadscript">
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  gtag('js', new Date());
  gtag('config', 'G-WPR1234567');
</script>
<script type="rocketlazyloadscript">(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':
new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],
j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src=
'https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);
})(window,document,'script','dataLayer','GTM-WPR1234');window.__gtm_snippet_ran=true;</script>
<script type="rocketlazyloadscript" data-rocket-type="text/javascript" data-rocket-src="${site.url}${OWN}"></script>
</head><body><h1>Shop</h1>
<iframe loading="lazy" width="560" height="315" src="about:blank" data-rocket-lazyload="fitvidscompatible" data-lazy-src="https://${YT_LAZY}" title="Video"></iframe>
<iframe width="560" height="315" data-litespeed-src="https://${YT_LSC}" title="Video"></iframe>
<script>
  // WP Rocket's steps in Chromium: on the first interaction, each delayed script in order (normal, then defer, then
  // async), in place, the next one after the element's load or error.
  (function () {
    var started = false;
    function one(t) {
      return new Promise(function (done) {
        var type = t.getAttribute('data-rocket-type'), src = t.getAttribute('data-rocket-src');
        if (type) { t.type = type; t.removeAttribute('data-rocket-type'); } else t.removeAttribute('type');
        t.addEventListener('load', done);
        t.addEventListener('error', function () { t.setAttribute('data-rocket-status', 'failed'); done(); });
        if (src) { t.removeAttribute('data-rocket-src'); t.src = src; }
        else t.src = 'data:text/javascript;base64,' + btoa(unescape(encodeURIComponent(t.text)));
      });
    }
    async function run() {
      if (started) return;
      started = true;
      var all = [].slice.call(document.querySelectorAll('script[type=rocketlazyloadscript]'));
      var list = all.filter(function (t) { return !t.hasAttribute('async') && !t.hasAttribute('defer'); })
        .concat(all.filter(function (t) { return t.hasAttribute('defer'); }), all.filter(function (t) { return t.hasAttribute('async'); }));
      for (var i = 0; i < list.length; i++) await one(list[i]);
      window.__rocket_done = true;
    }
    ['keydown', 'mousedown', 'mousemove', 'touchstart', 'wheel'].forEach(function (e) { window.addEventListener(e, run, { passive: true }); });
    // LiteSpeed Cache's delayed frames, on the first interaction.
    window.addEventListener('mousemove', function () {
      document.querySelectorAll('iframe[data-litespeed-src]').forEach(function (e) { e.setAttribute('src', e.getAttribute('data-litespeed-src')); });
    }, { once: true });
    // WP Rocket's LazyLoad (vanilla-lazyload): a frame's address once it is in view.
    new IntersectionObserver(function (entries, io) {
      entries.forEach(function (x) {
        if (!x.isIntersecting) return;
        io.unobserve(x.target);
        x.target.setAttribute('src', x.target.getAttribute('data-lazy-src'));
      });
    }).observe(document.querySelector('iframe[data-lazy-src]'));
  })();
</script>
</body></html>`;
  const answer = (route: Route) => {
    const u = bare(route.request().url());
    if (route.request().resourceType() === 'document') return route.fulfill({ status: 200, contentType: 'text/html', body: STAND_IN_PAGE });
    const body = u.startsWith(GTAG) ? 'window.__ran_wpr_gtag = (window.__ran_wpr_gtag || 0) + 1;' : u.startsWith(GTM) ? 'window.__ran_wpr_gtm = (window.__ran_wpr_gtm || 0) + 1;' : '';
    return route.fulfill({ status: 200, contentType: 'text/javascript', body });
  };
  const ownRan = (p: Page) => p.evaluate((path) => ((window as unknown as { ran?: string[] }).ran ?? []).filter((x) => x === path).length, OWN);
  const frameState = (p: Page) => p.evaluate(() => [...document.querySelectorAll('iframe')].map((f) => ({ src: f.getAttribute('src'), blocked: f.getAttribute('data-ccm-blocked') })));

  it('nothing of the vendors runs before consent, even after the interaction that starts them; the site\'s own script runs; "accept all" runs each once', async () => {
    const snippet = await setup(['Google Analytics 4', 'Google Tag Manager', 'YouTube']);
    const o = await open(snippet, page, answer);
    // The first interaction: WP Rocket and LiteSpeed start everything they held back (over the heading: a mouse over a
    // loaded frame moves in the frame's document, not the page's).
    await o.page.mouse.move(5, 5);
    await o.page.mouse.move(20, 12);
    await o.page.waitForFunction(() => (window as unknown as Record<string, unknown>).__rocket_done === true, undefined, { timeout: 15_000 }).catch(() => undefined);
    await o.page.waitForTimeout(700);
    expect(await typeOf(o.page, '__ran_wpr_gtag'), `${GTAG} ran before consent`).toBe('undefined');
    expect(await typeOf(o.page, '__rocket_done'), "WP Rocket's loader did not get through its scripts").toBe('boolean');
    expect(await typeOf(o.page, '__gtm_snippet_ran'), 'the Tag Manager snippet ran before consent').toBe('undefined');
    expect(await typeOf(o.page, '__ran_wpr_gtm')).toBe('undefined');
    // The theme's script after the blocked ones ran: WP Rocket's loader went on (it waits for each script's load or error).
    expect(await ownRan(o.page)).toBe(1);
    // Both frames kept back: no address, the vendor's page never ran, each under its overlay.
    expect(framesRan(o, YT_LAZY).length + framesRan(o, YT_LSC).length, 'a YouTube page ran before consent').toBe(0);
    for (const f of await frameState(o.page)) {
      expect(f.src).toBeNull();
      expect(bare(f.blocked ?? '')).toMatch(/^www\.youtube\.com\/embed\//);
    }
    expect(await o.page.locator('.ccm-blocked').count()).toBe(2);
    expect(o.errors).toEqual([]);

    await widget(o.page).locator('button.a').click();
    await o.page.waitForFunction(() => (window as unknown as Record<string, unknown>).__ran_wpr_gtm === 1, undefined, { timeout: 15_000 }).catch(() => undefined);
    await o.page.waitForFunction(() => (window as unknown as Record<string, unknown>).__ran_wpr_gtag === 1, undefined, { timeout: 15_000 }).catch(() => undefined);
    expect(await o.page.evaluate(() => [(window as unknown as Record<string, unknown>).__ran_wpr_gtag, (window as unknown as Record<string, unknown>).__ran_wpr_gtm])).toEqual([1, 1]);
    expect(await typeOf(o.page, '__gtm_snippet_ran')).toBe('boolean');
    expect(await ownRan(o.page), "the theme's script ran a second time").toBe(1);
    for (const url of [YT_LAZY, YT_LSC]) {
      await expect.poll(() => o.page.evaluate(scrollToFrame, url), { timeout: 15_000, message: `${url}: no frame` }).toBe(true);
      await expect.poll(() => framesRan(o, url).length, { timeout: 45_000, message: url }).toBeGreaterThanOrEqual(1);
    }
    await o.page.waitForTimeout(500);
    expect(await o.page.evaluate(() => (window as unknown as Record<string, unknown>).__ran_wpr_gtag)).toBe(1);
    expect(o.errors).toEqual([]);
    await o.context.close();
  }, 90_000);
});

describe('a frame held before consent whose address a page script sets again (a video gallery, a play button)', () => {
  const FIRST = 'www.youtube.com/embed/galleryAAA1';
  const SECOND = 'www.youtube.com/embed/galleryBBB2';
  const VIMEO = 'player.vimeo.com/video/76979871';
  // YouTube's embed code for the first video, and thumbnails that play another video in the same frame, as theme and
  // gallery scripts do (`player.src = …`), one of them a Vimeo video.
  const page = (widgetSnippet: string) => `<!doctype html><html><head><meta charset="utf-8">${widgetSnippet}</head><body><h1>Videos</h1>
<iframe id="player" width="560" height="315" src="https://${FIRST}?si=AbCdEfGhIjKlMnOp" title="YouTube video player" frameborder="0" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe>
<ul class="gallery">
  <li><button type="button" data-video="galleryBBB2">Second video</button></li>
  <li><button type="button" data-video="https://${VIMEO}?h=8dcc1d8d2c">On Vimeo</button></li>
</ul>
<script>
  document.querySelectorAll('.gallery button').forEach(function (b) {
    b.addEventListener('click', function () {
      var v = b.getAttribute('data-video');
      document.getElementById('player').src = v.indexOf('https://') === 0 ? v : 'https://www.youtube.com/embed/' + v + '?autoplay=1';
    });
  });
</script>
</body></html>`;
  const held = (p: Page) => p.evaluate(() => [...document.querySelectorAll('iframe')].map((f) => ({ src: f.getAttribute('src'), blocked: f.getAttribute('data-ccm-blocked') })));
  const overlayText = (p: Page) => p.locator('.ccm-blocked').evaluateAll((list) => list.map((e) => e.shadowRoot?.textContent ?? ''));

  it('the new address is held too (under the overlay of the embedding it belongs to), and loads only after consent', async () => {
    const snippet = await setup(['YouTube', 'Vimeo']);
    const o = await open(snippet, page);
    expect(await held(o.page)).toEqual([{ src: null, blocked: `https://${FIRST}?si=AbCdEfGhIjKlMnOp` }]);
    // A visitor picks another video before deciding anything.
    await o.page.click('button[data-video="galleryBBB2"]');
    await o.page.waitForTimeout(1000);
    expect(o.requests.filter((r) => bare(r).startsWith(SECOND)), 'the second video was requested before consent').toEqual([]);
    expect(vendorFrames(o, SECOND)).toEqual([]);
    expect(await held(o.page)).toEqual([{ src: null, blocked: `https://${SECOND}?autoplay=1` }]);
    expect(await o.page.locator('.ccm-blocked').count()).toBe(1);
    // Then one on another service: held as Vimeo's, not under YouTube's overlay.
    await o.page.click('button[data-video^="https://player.vimeo.com"]');
    await o.page.waitForTimeout(1000);
    expect(o.requests.filter((r) => bare(r).startsWith(VIMEO)), 'the Vimeo video was requested before consent').toEqual([]);
    // Deterministic, where the requests above depend on timing: the address a script sets never reaches the frame, so
    // Chromium starts no navigation at all. The widget checks it before it is set (setAttribute, as jQuery's attr()
    // sets it, and the `src` setter); reported afterwards by the observer, the request had left before it (1 of 4
    // runs under CPU load, and once in CI).
    expect(await o.page.evaluate(([a, b]) => {
      const f = document.getElementById('player') as HTMLIFrameElement;
      f.setAttribute('src', a!);
      const afterAttr = [f.getAttribute('src'), f.getAttribute('data-ccm-blocked')];
      f.src = b!;
      return [...afterAttr, f.getAttribute('src'), f.getAttribute('data-ccm-blocked'), f.src];
    }, [`https://${SECOND}?autoplay=1`, `https://${VIMEO}?h=8dcc1d8d2c`])).toEqual([null, `https://${SECOND}?autoplay=1`, null, `https://${VIMEO}?h=8dcc1d8d2c`, '']);
    expect(await held(o.page)).toEqual([{ src: null, blocked: `https://${VIMEO}?h=8dcc1d8d2c` }]);
    const overlays = await overlayText(o.page);
    expect(overlays).toHaveLength(1);
    expect(overlays[0]).toContain('Vimeo');
    expect(overlays[0]).not.toContain('YouTube');
    expect(framesRan(o, 'www.youtube.com/embed/').length + framesRan(o, VIMEO).length).toBe(0);

    await widget(o.page).locator('button.a').click();
    await expect.poll(() => framesRan(o, VIMEO).length, { timeout: 45_000 }).toBeGreaterThanOrEqual(1);
    expect(await held(o.page)).toEqual([{ src: `https://${VIMEO}?h=8dcc1d8d2c`, blocked: null }]);
    expect(framesRan(o, 'www.youtube.com/embed/')).toEqual([]);
    expect(await o.page.locator('.ccm-blocked').count()).toBe(0);
    // After consent the gallery works as it did without the widget.
    await o.page.click('button[data-video="galleryBBB2"]');
    await expect.poll(() => framesRan(o, SECOND).length, { timeout: 45_000 }).toBeGreaterThanOrEqual(1);
    await o.context.close();
  }, 120_000);

  it('after consent to YouTube alone, a thumbnail that plays a Vimeo video in the same frame waits for Vimeo\'s consent', async () => {
    const snippet = await setup(['YouTube', 'Vimeo']);
    const o = await open(snippet, page);
    // The visitor loads the YouTube video on its overlay: consent to YouTube only, and the frame the widget let load.
    await o.page.locator('.ccm-blocked').first().locator('button.y').click({ timeout: 15_000 });
    await expect.poll(() => framesRan(o, FIRST).length, { timeout: 45_000 }).toBeGreaterThanOrEqual(1);
    expect(await held(o.page)).toEqual([{ src: `https://${FIRST}?si=AbCdEfGhIjKlMnOp`, blocked: null }]);
    // Another YouTube video in it plays at once …
    await o.page.click('button[data-video="galleryBBB2"]');
    await expect.poll(() => framesRan(o, SECOND).length, { timeout: 45_000 }).toBeGreaterThanOrEqual(1);
    // … a Vimeo one is held: the frame the widget let load for YouTube is no pass for another service.
    await o.page.click('button[data-video^="https://player.vimeo.com"]');
    await o.page.waitForTimeout(1000);
    expect(o.requests.filter((r) => bare(r).startsWith(VIMEO)), 'the Vimeo video was requested without consent to Vimeo').toEqual([]);
    expect(framesRan(o, VIMEO)).toEqual([]);
    expect(await held(o.page)).toEqual([{ src: null, blocked: `https://${VIMEO}?h=8dcc1d8d2c` }]);
    expect(await overlayText(o.page)).toEqual([expect.stringContaining('Vimeo')]);
    await o.context.close();
  }, 120_000);
});

describe('a player a page script writes as markup (video facades: innerHTML, insertAdjacentHTML as lite-vimeo copies in themes do, outerHTML)', () => {
  const YT = 'www.youtube.com/embed/facadeAAA1';
  const YT2 = 'www.youtube.com/embed/facadeBBB2';
  const VIMEO = 'player.vimeo.com/video/76979872';
  // Click-to-load facades: a thumbnail whose click writes the player as markup (the pattern of lite-youtube-embed's
  // first versions and of the lite-vimeo copies themes ship: `insertAdjacentHTML('beforeend', iframeHTML)`), a theme's
  // `innerHTML`, a slider's `outerHTML`, and a frame of the site's own written the same way.
  const page = (widgetSnippet: string) => `<!doctype html><html><head><meta charset="utf-8">${widgetSnippet}</head><body><h1>Videos</h1>
<div id="yt" data-id="facadeAAA1"><button type="button">Play on YouTube</button></div>
<lite-vimeo id="vm" videoid="76979872"><button type="button">Play on Vimeo</button></lite-vimeo>
<div id="slide"><button type="button">Next slide</button></div>
<div id="own"></div>
<script>
  customElements.define('lite-vimeo', class extends HTMLElement {
    connectedCallback() { this.querySelector('button').addEventListener('click', () => this.addIframe()); }
    addIframe() {
      const iframeHTML = \`
<iframe width="640" height="360" frameborder="0"
  allow="accelerometer; autoplay; encrypted-media; gyroscope; picture-in-picture" allowfullscreen
  src="https://player.vimeo.com/video/\${this.getAttribute('videoid')}?autoplay=1"
></iframe>\`;
      this.insertAdjacentHTML('beforeend', iframeHTML);
      this.classList.add('ltv-activated');
    }
  });
  document.querySelector('#yt button').addEventListener('click', function () {
    var box = document.getElementById('yt');
    box.innerHTML = '<iframe width="560" height="315" src="https://www.youtube.com/embed/' + box.dataset.id + '?autoplay=1" allow="autoplay" allowfullscreen></iframe>';
  });
  document.querySelector('#slide button').addEventListener('click', function () {
    this.outerHTML = "<iframe src='//www.youtube.com/embed/facadeBBB2' width=560 height=315></iframe>";
  });
  document.getElementById('own').innerHTML = '<iframe src="/own-frame" title="own"></iframe>';
  window.ownSrcAtOnce = document.querySelector('#own iframe').getAttribute('src');
</script>
</body></html>`;
  const frames = (p: Page) => p.evaluate(() => [...document.querySelectorAll('iframe')].map((f) => ({ src: f.getAttribute('src'), blocked: f.getAttribute('data-ccm-blocked') })));
  const toPlayers = (o: Opened) => o.requests.filter((r) => [YT, YT2, VIMEO].some((u) => bare(r).startsWith(u)));
  const clickAll = async (p: Page) => {
    // The buttons' own click (the banner covers the last one, as it would until the visitor scrolls).
    for (const b of ['#yt button', '#vm button', '#slide button']) await p.$eval(b, (e) => (e as HTMLElement).click());
    await p.waitForTimeout(1000);
  };

  it('without the widget each click loads its player (what the test can see)', async () => {
    const o = await open('', page);
    await clickAll(o.page);
    await expect.poll(() => [YT, VIMEO, YT2].map((u) => framesRan(o, u).length > 0), { timeout: 20_000 }).toEqual([true, true, true]);
    await o.context.close();
  });

  it('no player is even requested before consent (the markup\'s frames never get their address); the site\'s own frame loads at once; "accept all" plays each', async () => {
    const snippet = await setup(['YouTube', 'Vimeo']);
    const o = await open(snippet, page);
    // The site's own frame written as markup keeps its address, at once (the widget leaves what it would not hold as written).
    expect(await o.page.evaluate(() => (window as unknown as { ownSrcAtOnce: string }).ownSrcAtOnce)).toBe('/own-frame');
    await clickAll(o.page);
    // Until stop 52 each player was requested as its markup was inserted (and ended by the widget before it ran).
    expect(toPlayers(o), 'a player was requested before consent').toEqual([]);
    expect(await frames(o.page)).toEqual([
      { src: null, blocked: `https://${YT}?autoplay=1` },
      { src: null, blocked: `https://${VIMEO}?autoplay=1` },
      { src: null, blocked: `//${YT2}` },
      { src: '/own-frame', blocked: null },
    ]);
    expect(await o.page.locator('.ccm-blocked').count()).toBe(3);
    // Deterministic: markup inserted by a script holds no address at the moment it is in the page.
    expect(await o.page.evaluate((u) => {
      const box = document.getElementById('own')!;
      box.insertAdjacentHTML('afterbegin', `<iframe src="${u}"></iframe>`);
      return box.querySelector('iframe')!.getAttribute('src');
    }, `https://${YT}?check`)).toBeNull();

    await widget(o.page).locator('button.a').click();
    await expect.poll(() => [YT, VIMEO, YT2].map((u) => framesRan(o, u).length > 0), { timeout: 45_000 }).toEqual([true, true, true]);
    expect((await frames(o.page)).filter((f) => f.blocked !== null)).toEqual([]);
    expect(await o.page.locator('.ccm-blocked').count()).toBe(0);
    expect(o.errors).toEqual([]);
    await o.context.close();
  }, 120_000);
});

describe('tags that write with document.write (legacy Matomo, reCAPTCHA behind a check, legacy AdSense, Google\'s loader, Jotform\'s script embed)', () => {
  // Piwik's (Matomo's) tracking code until Piwik 1.x, exactly as it printed it (many self-hosted sites still carry it).
  const PIWIK = `<!-- Piwik -->
<script type="text/javascript">
var pkBaseURL = (("https:" == document.location.protocol) ? "https://stats.example.org/" : "http://stats.example.org/");
document.write(unescape("%3Cscript src='" + pkBaseURL + "piwik.js' type='text/javascript'%3E%3C/script%3E"));
</script><script type="text/javascript">
try {
var piwikTracker = Piwik.getTracker(pkBaseURL + "piwik.php", 1);
piwikTracker.trackPageView();
piwikTracker.enableLinkTracking();
} catch( err ) {}
</script><noscript><p><img src="http://stats.example.org/piwik.php?idsite=1" style="border:0" alt="" /></p></noscript>
<!-- End Piwik Tracking Code -->`;
  // A theme's contact form (found in public code, there in a script file; inline, its end tags are written `<\/script>`):
  // reCAPTCHA written only where the form is, with its onload callback.
  const RECAPTCHA = `<div class="g-recaptcha-holder"></div>
<script>
  if(document.querySelector('.g-recaptcha-holder') != null) {
    document.write('<script src="https://www.google.com/recaptcha/api.js?onload=onloadReCaptchaCallback&render=explicit" async defer><\\/script>');
    document.write('<script>function onloadReCaptchaCallback(){ window.__recaptcha_ready = true; }</scr' + 'ipt>');
  }
</script>`;
  // AdSense's synchronous ad code (show_ads.js), which writes the ad's frame where it stands.
  const ADSENSE = `<div id="ad"><script type="text/javascript"><!--
google_ad_client = "ca-pub-0123456789012345";
google_ad_slot = "1234567890";
google_ad_width = 728;
google_ad_height = 90;
//-->
</script>
<script type="text/javascript"
src="//pagead2.googlesyndication.com/pagead/show_ads.js">
</script></div>`;
  // Google's loader with the search API (found in public code, there in a script file): one element written across
  // four calls.
  const JSAPI = `<script>
document.write('<script src="https://www.google.com/jsapi" type="text/javascript"><\\/script>')
document.write('<script type="text/javascript">')
document.write("google.load('search', '1', { nocss: true, nooldnames: true, language: 'de' })")
document.write('<\\/script>')
</script>`;
  // Jotform's "Script" embed, as its publish dialog hands it out: the script writes the form's frame.
  const JOTFORM = `<div id="form"><script type="text/javascript" src="https://form.jotform.com/jsform/241234567890123"></script></div>`;
  // A GitHub Gist, as its "Embed" button hands it out: the script writes a stylesheet link and the gist's markup.
  const GIST = `<div id="gist"><script src="https://gist.github.com/octocat/6cad326836d38bd3a7ae.js"></script></div>`;
  const AD_FRAME = 'googleads.g.doubleclick.net/pagead/ads';
  const FORM_FRAME = 'form.jotform.com/241234567890123';
  const page = (snippet: string) => `<!doctype html><html><head><meta charset="utf-8">${snippet}</head><body>
<h1 id="first">Shop</h1>
${PIWIK}
<p>Contact us</p>
${RECAPTCHA}
${ADSENSE}
${JSAPI}
${JOTFORM}
${GIST}
<p id="last">Imprint</p>
</body></html>`;

  async function answer(route: Route) {
    const url = bare(route.request().url());
    const js = (body: string) => route.fulfill({ status: 200, contentType: 'text/javascript', body });
    if (url.startsWith('stats.example.org/piwik.js')) {
      return js('window.__ran_piwik=true;window.Piwik={getTracker:function(u,id){window.__tracker=[u,id];return{trackPageView:function(){window.__pageview=true},enableLinkTracking:function(){}}}};');
    }
    if (url.startsWith('www.google.com/recaptcha/api.js')) {
      // As the real one: it calls the function its `onload` parameter names, once it has loaded.
      return js('window.__ran_recaptcha=true;var m=/onload=(\\w+)/.exec(document.currentScript.src);window.__recaptcha_onload=typeof window[m[1]];window[m[1]]&&window[m[1]]();');
    }
    if (url.startsWith('pagead2.googlesyndication.com/pagead/show_ads.js')) {
      return js(`window.__ran_adsense=true;document.write('<ins style="display:inline-table;width:728px;height:90px"><iframe width="728" height="90" frameborder="0" src="https://${AD_FRAME}?client='+google_ad_client+'&slot='+google_ad_slot+'"></iframe></ins>');`);
    }
    if (url.startsWith('form.jotform.com/jsform/')) {
      return js(`window.__ran_jotform=true;document.write('<iframe id="JotFormIFrame-241234567890123" title="Contact" src="https://${FORM_FRAME}" style="width:100%;height:539px;border:none"></iframe>');`);
    }
    if (url.startsWith('gist.github.com/octocat/')) {
      return js(`window.__ran_gist=true;
document.write('<link rel="stylesheet" href="https://github.githubassets.com/assets/gist-embed-4ac6018bcc05.css">')
document.write('<div id=\\"gist12345\\" class=\\"gist\\">\\n<div class=\\"gist-file\\"><div class=\\"gist-data\\">console.log(1)</div></div>\\n</div>\\n')`);
    }
    if (url.startsWith('www.google.com/jsapi')) return js('window.__ran_jsapi=true;window.google={load:function(m,v){window.__google_load=[m,v];}};');
    if (route.request().resourceType() === 'document') return route.fulfill({ status: 200, contentType: 'text/html', body: STAND_IN_PAGE });
    return route.fulfill({ status: 204, body: '' });
  }

  const SCRIPTS = ['stats.example.org/piwik.js', 'www.google.com/recaptcha/api.js', 'pagead2.googlesyndication.com/pagead/show_ads.js', 'www.google.com/jsapi', 'form.jotform.com/jsform/', 'gist.github.com/octocat/'];
  const GLOBALS = ['__ran_piwik', '__pageview', '__ran_recaptcha', '__recaptcha_ready', '__ran_adsense', '__ran_jsapi', '__google_load', '__ran_jotform', '__ran_gist'];
  const globals = (p: Page) => p.evaluate((names) => Object.fromEntries(names.map((n) => [n, (window as unknown as Record<string, unknown>)[n]])), GLOBALS);
  /** The page's own content and the widget, all there (a document.write after the load replaces the whole page). */
  const intact = (p: Page) => p.evaluate(() => ({
    first: !!document.getElementById('first'), last: !!document.getElementById('last'),
    widget: !!document.getElementById('ccm-widget'), api: typeof (window as unknown as { CCM?: unknown }).CCM,
  }));
  const INTACT = { first: true, last: true, widget: true, api: 'object' };

  async function domain(settings: Record<string, unknown> = {}) {
    const { base, snippet } = await presetDomain(hosting, appUrl, `http://127.0.0.1:${site.port}`, ['Matomo', 'Google reCAPTCHA', 'Google AdSense', 'Jotform', 'GitHub Gist']);
    // Google's loader has no preset: an embedding of the agency's own, as README "Onboarding" describes.
    await hosting('POST', `${base}/embedding`, { name: 'Google Loader', purpose: 'a717ff5', scriptMarkers: ['google.com/jsapi'] });
    await hosting('PUT', base, settings);
    return snippet;
  }

  /** Nothing ran and nothing was requested but the `src` of the scripts in the HTML, which the preload scanner fetches (Blocking 1). */
  async function nothingRan(o: Opened) {
    expect(await globals(o.page)).toEqual(Object.fromEntries(GLOBALS.map((g) => [g, undefined])));
    expect(o.requests.filter((r) => ![2, 4, 5].some((i) => bare(r).startsWith(SCRIPTS[i]!)))).toEqual([]);
    expect(await o.page.locator('iframe').count()).toBe(0);
    expect(await intact(o.page)).toEqual(INTACT);
  }

  it('nothing is written or runs before a decision or after "decline"; "accept all" runs each, in order, and the page stays', async () => {
    const snippet = await domain();
    const declined = await open(snippet, page, answer);
    await nothingRan(declined);
    await widget(declined.page).locator('button.d').click();
    await declined.page.waitForTimeout(700);
    await nothingRan(declined);
    await declined.context.close();

    const o = await open(snippet, page, answer);
    await nothingRan(o);
    await widget(o.page).locator('button.a').click();
    await o.page.waitForFunction(() => (window as unknown as { __google_load?: unknown }).__google_load !== undefined && (window as unknown as { __ran_adsense?: unknown }).__ran_adsense, undefined, { timeout: 15_000 }).catch(() => undefined);
    // Until 2026-11-29 the first copy's document.write replaced the whole page here: no content, no widget.
    expect(await intact(o.page)).toEqual(INTACT);
    expect(await globals(o.page)).toEqual({
      // The library a copy wrote ran before the copy below it, which tracked the page view.
      __ran_piwik: true, __pageview: true,
      // reCAPTCHA found the callback written with it.
      __ran_recaptcha: true, __recaptcha_ready: true,
      __ran_adsense: true,
      // One element written across four calls, run after the library written before it.
      __ran_jsapi: true, __google_load: ['search', '1'],
      __ran_jotform: true,
      __ran_gist: true,
    });
    expect(await o.page.evaluate(() => (window as unknown as { __tracker: unknown }).__tracker)).toEqual(['http://stats.example.org/piwik.php', 1]);
    expect(await o.page.evaluate(() => (window as unknown as { __recaptcha_onload: unknown }).__recaptcha_onload)).toBe('function');
    for (const s of SCRIPTS) expect(o.requests.filter((r) => bare(r).startsWith(s)).length, s).toBeGreaterThanOrEqual(1);
    // The ad's frame, written by show_ads.js where it stands, loads; no markup is left over as text.
    expect(await o.page.locator('#ad ins iframe').count()).toBe(1);
    await expect.poll(() => framesRan(o, AD_FRAME).length, { timeout: 45_000 }).toBe(1);
    // Jotform's form, which its script embed writes (until 2026-11-29 it stayed empty on the page where the visitor consented).
    expect(await o.page.locator('#form iframe#JotFormIFrame-241234567890123').count()).toBe(1);
    await expect.poll(() => framesRan(o, FORM_FRAME).length, { timeout: 45_000 }).toBe(1);
    // The gist, written in two calls by GitHub's embed script (catalogue preset GitHub Gist since 2026-11-29), with its stylesheet.
    expect(await o.page.locator('#gist script + link[rel=stylesheet] + #gist12345 .gist-data').textContent()).toBe('console.log(1)');
    expect(o.requests.filter((r) => bare(r).startsWith('github.githubassets.com/assets/gist-embed-'))).toHaveLength(1);
    expect(await o.page.evaluate(() => document.body.innerText)).not.toMatch(/google\.load|<script|piwik/i);
    expect(o.errors).toEqual([]);

    // The next page: the browser runs them itself, each once.
    await o.page.reload();
    await o.page.waitForFunction(() => document.readyState === 'complete');
    await o.page.waitForTimeout(500);
    expect(await intact(o.page)).toEqual(INTACT);
    expect(await globals(o.page)).toMatchObject({ __ran_piwik: true, __pageview: true, __ran_adsense: true, __google_load: ['search', '1'], __ran_jotform: true });
    expect(await o.page.locator('#ad iframe').count()).toBe(1);
    expect(await o.page.locator('#form iframe').count()).toBe(1);
    await o.context.close();
  }, 120_000);

  it('a tracker the page\'s own script writes while the page loads (Matomo\'s code moved into a theme\'s script file) waits for consent', async () => {
    // The theme's script: its address and text name no vendor's marker ("piwik" is only in the written address's parts
    // below), so it runs; the tracker it writes ran inside the write, before the widget could see it, until 2026-11-29.
    site.setPage('/wp-content/themes/shop/js/footer.js', `var pkBaseURL = "https://stats.example.org/";
document.write(unescape("%3Cscript src='" + pkBaseURL + "piw" + "ik.js' type='text/javascript'%3E%3C/script%3E"));`, { 'content-type': 'text/javascript' });
    const theme = (snippet: string) => `<!doctype html><html><head><meta charset="utf-8">${snippet}</head><body>
<h1 id="first">Shop</h1>
<script src="/wp-content/themes/shop/js/footer.js"></script>
<script type="text/javascript">
try {
var piwikTracker = Piwik.getTracker(pkBaseURL + "piwik.php", 1);
piwikTracker.trackPageView();
} catch( err ) {}
</script>
<p id="last">Imprint</p>
</body></html>`;
    const snippet = await domain();
    for (const decline of [true, false]) {
      const o = await open(snippet, theme, answer);
      expect(await globals(o.page)).toMatchObject({ __ran_piwik: undefined, __pageview: undefined });
      // Not even requested: the written element was checked before it was inserted.
      expect(o.requests).toEqual([]);
      expect(await o.page.evaluate(() => document.querySelector('script[data-ccm-blocked][data-ccm-type]')?.getAttribute('src'))).toBe('https://stats.example.org/piwik.js');
      if (decline) {
        await widget(o.page).locator('button.d').click();
        await o.page.waitForTimeout(700);
        expect(await globals(o.page)).toMatchObject({ __ran_piwik: undefined, __pageview: undefined });
        expect(o.requests).toEqual([]);
      } else {
        await widget(o.page).locator('button.a').click();
        await o.page.waitForFunction(() => (window as unknown as { __pageview?: boolean }).__pageview, undefined, { timeout: 15_000 }).catch(() => undefined);
        expect(await globals(o.page)).toMatchObject({ __ran_piwik: true, __pageview: true });
        expect(await intact(o.page)).toEqual(INTACT);
      }
      expect(o.errors).toEqual([]);
      await o.context.close();
    }
  }, 120_000);

  it('an embedding\'s code (scriptHtmlCode) with Matomo\'s legacy tag, pasted by the agency: it runs after consent, in order, and the page stays', async () => {
    const { base, snippet } = await presetDomain(hosting, appUrl, `http://127.0.0.1:${site.port}`, []);
    // The established product's way: the vendor's code in the embedding, run by the widget once it is accepted.
    await hosting('POST', `${base}/embedding`, { name: 'Visitor statistics', purpose: 'a717ff5', scriptHtmlCode: PIWIK });
    const o = await open(snippet, (sn) => `<!doctype html><html><head><meta charset="utf-8">${sn}</head><body><h1 id="first">Shop</h1><p id="last">Imprint</p></body></html>`, answer);
    expect(await globals(o.page)).toMatchObject({ __ran_piwik: undefined, __pageview: undefined });
    expect(o.requests).toEqual([]);
    await widget(o.page).locator('button.a').click();
    await o.page.waitForFunction(() => (window as unknown as { __pageview?: boolean }).__pageview, undefined, { timeout: 15_000 }).catch(() => undefined);
    // Until 2026-11-29 the code was appended as a fragment: its first script's write replaced the page, and its second
    // ran before the library it needs.
    expect(await intact(o.page)).toEqual(INTACT);
    expect(await globals(o.page)).toMatchObject({ __ran_piwik: true, __pageview: true });
    expect(o.errors).toEqual([]);
    await o.context.close();
  }, 120_000);

  it('with evalInlineScripts (inline copies run through eval, without a document.currentScript) the same holds', async () => {
    const o = await open(await domain({ evalInlineScripts: true }), page, answer);
    await nothingRan(o);
    await widget(o.page).locator('button.a').click();
    await o.page.waitForFunction(() => (window as unknown as { __google_load?: unknown }).__google_load !== undefined, undefined, { timeout: 15_000 }).catch(() => undefined);
    expect(await intact(o.page)).toEqual(INTACT);
    expect(await globals(o.page)).toEqual({
      __ran_piwik: true, __pageview: true, __ran_recaptcha: true, __recaptcha_ready: true, __ran_adsense: true, __ran_jsapi: true, __google_load: ['search', '1'],
      __ran_jotform: true, __ran_gist: true,
    });
    expect(await o.page.locator('#ad ins iframe').count()).toBe(1);
    expect(o.errors).toEqual([]);
    await o.context.close();
  }, 120_000);
});
