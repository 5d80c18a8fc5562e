import type { Deps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { WindowLimiter, addressKey, exemptAddresses } from '../../plugins/rate-limiter.js';
import { domainBlocksIframes } from '../domains/domains.service.js';
import { TargetGuard, bareHost } from '../onboarding/target-guard.js';
import { UpstreamError, getUpstream, imageType, type UpstreamOptions } from './video-previews.fetch.js';
import { evictPreviews, findPreview, savePreview } from './video-previews.repository.js';
import type { VideoPreviewRow } from './video-previews.table.js';

export type VideoProvider = 'youtube' | 'vimeo';

/**
 * The player addresses whose preview is served, by host and first path segment, and the shape of their
 * video ids (YouTube's 11 characters, Vimeo's decimal number). Nothing else reaches an upstream URL.
 */
const PLAYERS: { hosts: readonly string[]; kind: string; provider: VideoProvider; id: RegExp }[] = [
  {
    hosts: ['www.youtube.com', 'youtube.com', 'm.youtube.com', 'www.youtube-nocookie.com', 'youtube-nocookie.com'],
    kind: 'embed',
    provider: 'youtube',
    id: /^[A-Za-z0-9_-]{11}$/,
  },
  { hosts: ['player.vimeo.com'], kind: 'video', provider: 'vimeo', id: /^[1-9][0-9]{0,11}$/ },
];

/** The video a blocked frame at `host`/`kind`/`videoId` plays, or undefined when it is no known player address. */
export function playerVideo(host: string, kind: string, videoId: string): { provider: VideoProvider; videoId: string } | undefined {
  const player = PLAYERS.find((p) => p.hosts.includes(host.toLowerCase()) && p.kind === kind);
  return player && player.id.test(videoId) ? { provider: player.provider, videoId } : undefined;
}

export interface PreviewImage {
  contentType: string;
  body: Buffer;
  /** Seconds a browser or proxy may keep it: what is left of the cache period. */
  maxAgeSeconds: number;
}

/** A refusal and how long a browser may remember it (negative entries), or when to come back (429). */
export interface PreviewRefusal {
  error: AppError;
  maxAgeSeconds?: number;
  retryAfter?: number;
}

const DOMAIN_CACHE_MS = 60_000;
const DOMAIN_CACHE_SIZE = 10_000;
const OEMBED_MAX_BYTES = 65_536;

/**
 * Preview images of blocked YouTube and Vimeo frames (docs/widget.md, "Video previews"): fetched by the
 * server through the SSRF guard, cached in the database for `cacheHours` and served from Placet, so the
 * visitor's browser never contacts the video host before consent.
 */
export class VideoPreviewService {
  /** Fetches under way in this process: concurrent requests for one uncached video share one. */
  private readonly inflight = new Map<string, Promise<VideoPreviewRow>>();
  private readonly misses: WindowLimiter;
  private readonly exempt: (ip: string) => boolean;
  private readonly guard: TargetGuard;
  /** Which domains offer previews, for a minute: every blocked video of every page view asks. */
  private readonly domains = new Map<string, { offers: boolean; until: number }>();

  constructor(private readonly deps: Deps) {
    const { videoPreviews, limits } = deps.config;
    this.misses = new WindowLimiter(limits.enabled ? videoPreviews.missesPerAddressPerMinute : 0, 60_000, deps.clock);
    this.exempt = exemptAddresses(limits);
    this.guard = new TargetGuard({ allowPrivateNetworks: videoPreviews.allowPrivateNetworks });
  }

  /** The preview of the frame at `https://<host>/<kind>/<videoId>` on the domain's pages. */
  async preview(domainId: string, frame: { host: string; kind: string; videoId: string }, ip: string): Promise<PreviewImage | PreviewRefusal> {
    const video = playerVideo(frame.host, frame.kind, frame.videoId);
    if (!video) {
      const message = 'must be a YouTube player address (youtube.com or youtube-nocookie.com /embed/ and an 11-character id) or a Vimeo one (player.vimeo.com/video/ and a number)';
      return { error: new AppError('VALIDATION_FAILED', [{ field: 'params', message }]) };
    }
    const { provider, videoId } = video;
    if (!this.deps.config.videoPreviews.enabled || !(await this.offers(domainId))) {
      return { error: new AppError('VIDEO_PREVIEW_NOT_OFFERED') };
    }
    const now = this.deps.clock.now();
    let row = await findPreview(this.deps.db, provider, videoId);
    if (!row || row.expires_at <= now.toISOString()) {
      const key = `${provider}:${videoId}`;
      let pending = this.inflight.get(key);
      if (!pending) {
        // Only a request that starts a fetch counts against its address: a flood of made-up ids costs the
        // flooder its allowance, and visitors of a video someone else is fetching just wait for it.
        const retryAfter = this.exempt(ip) ? 0 : this.misses.hit(addressKey(ip));
        if (retryAfter > 0) {
          return { error: new AppError('RATE_LIMITED', [{ field: 'address', message: 'too many uncached previews from your address; retry later', retryAfter }]), retryAfter };
        }
        // Many addresses at once (a botnet asking for made-up ids) must not open unbounded connections to the
        // video host either: beyond this many fetches in flight, a miss is refused for a second.
        if (this.inflight.size >= this.deps.config.videoPreviews.maxConcurrentFetches) {
          return { error: new AppError('RATE_LIMITED', [{ field: 'params', message: 'too many previews are being fetched; retry in a second', retryAfter: 1 }]), retryAfter: 1 };
        }
        pending = this.fetchAndStore(provider, videoId).finally(() => this.inflight.delete(key));
        this.inflight.set(key, pending);
      }
      row = await pending;
    }
    const maxAgeSeconds = Math.max(0, Math.floor((Date.parse(row.expires_at) - now.getTime()) / 1000));
    if (row.body === null || row.content_type === null) {
      return { error: new AppError('VIDEO_PREVIEW_UNAVAILABLE'), maxAgeSeconds };
    }
    return { contentType: row.content_type, body: Buffer.from(row.body, 'base64'), maxAgeSeconds };
  }

  private async offers(domainId: string): Promise<boolean> {
    const now = Date.now();
    const hit = this.domains.get(domainId);
    if (hit && hit.until > now) return hit.offers;
    const offers = await domainBlocksIframes(this.deps, domainId);
    if (this.domains.size >= DOMAIN_CACHE_SIZE) this.domains.clear();
    this.domains.set(domainId, { offers, until: now + DOMAIN_CACHE_MS });
    return offers;
  }

  /** Fetches the image, stores it (or "no image") and keeps the cache within its bounds. Never throws for the host's faults. */
  private async fetchAndStore(provider: VideoProvider, videoId: string): Promise<VideoPreviewRow> {
    const config = this.deps.config.videoPreviews;
    const now = this.deps.clock.now();
    let image: { contentType: string; body: Buffer } | undefined;
    try {
      image = provider === 'youtube' ? await this.youtube(videoId) : await this.vimeo(videoId);
    } catch (err) {
      if (!(err instanceof UpstreamError)) throw err;
      this.deps.log.info({ provider, videoId, reason: err.reason }, 'video preview: no image from the video host');
    }
    const lifetimeMs = image ? config.cacheHours * 3_600_000 : config.negativeCacheMinutes * 60_000;
    const row: VideoPreviewRow = {
      provider,
      video_id: videoId,
      content_type: image?.contentType ?? null,
      body: image ? image.body.toString('base64') : null,
      size: image?.body.length ?? 0,
      fetched_at: now.toISOString(),
      expires_at: new Date(now.getTime() + lifetimeMs).toISOString(),
    };
    await savePreview(this.deps.db, row);
    await evictPreviews(this.deps.db, now.toISOString(), config.maxEntries, config.maxCacheMegabytes * 1_048_576);
    return row;
  }

  private options(accept: string, maxBytes: number): UpstreamOptions {
    return { guard: this.guard, timeoutMs: this.deps.config.videoPreviews.timeoutMs, maxBytes, accept };
  }

  private async image(url: URL): Promise<{ contentType: string; body: Buffer }> {
    const answer = await getUpstream(url, this.options('image/webp,image/png,image/jpeg', this.deps.config.videoPreviews.maxImageBytes));
    const contentType = imageType(answer);
    if (!contentType) throw new UpstreamError('invalid');
    return { contentType, body: answer.body };
  }

  private youtube(videoId: string) {
    return this.image(new URL(this.deps.config.videoPreviews.youtubeUrl.replace('{id}', videoId)));
  }

  /** Vimeo has no image address derived from the id: its oEmbed answer names the thumbnail. */
  private async vimeo(videoId: string) {
    const config = this.deps.config.videoPreviews;
    const answer = await getUpstream(new URL(config.vimeoOembedUrl.replace('{id}', videoId)), this.options('application/json', OEMBED_MAX_BYTES));
    let thumbnail: URL;
    try {
      const value = (JSON.parse(answer.body.toString('utf8')) as { thumbnail_url?: unknown }).thumbnail_url;
      thumbnail = new URL(String(value));
    } catch {
      throw new UpstreamError('invalid');
    }
    // The answer is the host's, not ours: it may only send us on to the configured image hosts, over https.
    const schemeOk = thumbnail.protocol === 'https:' || (config.allowPrivateNetworks && thumbnail.protocol === 'http:');
    if (!schemeOk || thumbnail.username || thumbnail.password || !config.vimeoThumbnailHosts.includes(bareHost(thumbnail.hostname))) {
      throw new UpstreamError('invalid');
    }
    return this.image(thumbnail);
  }
}
