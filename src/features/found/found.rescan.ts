import type { Deps } from '../../deps.js';
import { domainRowToDomain } from '../domains/domains.service.js';
import { domainStartUrl, scanDomain } from '../onboarding/scan.service.js';
import type { Scanner } from '../onboarding/scanner.js';
import { claimScan, dueScanDomains, finishScan } from './found.repository.js';
import { recordItems } from './found.service.js';
import { FOUND_KINDS, type FoundKind } from './found.table.js';

/** How often each process looks for due domains, and how many it scans per look (one after another). */
export const RESCAN_TICK_MS = 5 * 60_000;
export const RESCAN_DOMAINS_PER_TICK = 3;

/**
 * The server side of the permanent crawler (docs/found-items.md): every FOUND_RESCAN_HOURS, each domain with
 * permanentScanEnabled is scanned once with onboarding's scanner (SSRF guard, deadline, scan pass), and what the
 * scan finds that no embedding declares is recorded like a visitor's report. Several processes on one database
 * each tick, but a domain is scanned by whichever takes its lease (found.repository.ts, claimScan).
 */
export class FoundRescan {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private readonly owner: string;

  constructor(
    private readonly deps: Deps,
    private readonly scanner: Scanner,
  ) {
    this.owner = deps.ids.hex(8);
  }

  start(): void {
    if (this.deps.config.foundRescanHours <= 0) return;
    this.timer = setInterval(() => {
      this.running = this.tick().catch((err: unknown) => this.deps.log.warn({ err }, 'found items: re-scan tick failed'));
    }, RESCAN_TICK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One look: claims up to RESCAN_DOMAINS_PER_TICK due domains and scans them; answers the ids it scanned. */
  async tick(): Promise<string[]> {
    const now = this.deps.clock.now().getTime();
    const cutoff = now - this.deps.config.foundRescanHours * 3_600_000;
    // A lease outlives the scan's own deadline; a process that dies mid-scan frees the domain when it expires.
    const leaseUntil = now + this.deps.config.scan.timeoutMs + 60_000;
    const scanned: string[] = [];
    for (const row of await dueScanDomains(this.deps.db, cutoff, now, RESCAN_DOMAINS_PER_TICK)) {
      if (!domainRowToDomain(row).permanentScanEnabled) continue;
      if (!(await claimScan(this.deps.db, row.id, this.owner, now, leaseUntil, cutoff))) continue;
      try {
        const result = await scanDomain(this.deps, this.scanner, row.client_id, row.id);
        const items: { kind: FoundKind; value: string }[] = [
          ...result.scripts.map((value) => ({ kind: 'script' as const, value })),
          ...result.iframes.map((value) => ({ kind: 'iframe' as const, value })),
          // Cookies another site set are that site's, not the domain's.
          ...result.storage.cookies.filter((c) => !c.thirdParty).map((c) => ({ kind: 'cookie' as const, value: c.name })),
          ...result.storage.localStorage.map((s) => ({ kind: 'localStorage' as const, value: s.name })),
          ...result.storage.sessionStorage.map((s) => ({ kind: 'sessionStorage' as const, value: s.name })),
        ];
        // The crawler looks for every kind: permanentScanEnabled is "discovery of cookies, storage and scripts".
        await recordItems(this.deps, row, new Set(FOUND_KINDS), items, domainStartUrl(row));
        scanned.push(row.id);
      } catch (err) {
        // A site that is down is tried again after the interval, not on every tick.
        this.deps.log.warn({ err, domainId: row.id }, 'found items: re-scan failed');
      } finally {
        await finishScan(this.deps.db, row.id, this.owner, this.deps.clock.now().getTime());
      }
    }
    return scanned;
  }
}
