import net from 'node:net';
import type { Config } from '../../config.js';

/**
 * Which widget calls count against a client's quota: not those from configured address ranges (the agency's
 * office, monitoring) nor from user agents containing a configured substring (bots). Built once per app.
 */
export class CountingPolicy {
  private readonly ranges = new net.BlockList();
  private readonly hasRanges: boolean;
  private readonly agents: readonly string[];

  constructor(quotas: Config['quotas']) {
    for (const entry of quotas.excludeIps) {
      const [address, prefix] = entry.split('/') as [string, string | undefined];
      const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.ranges.addAddress(address, family);
      else this.ranges.addSubnet(address, Number(prefix), family);
    }
    this.hasRanges = quotas.excludeIps.length > 0;
    this.agents = quotas.excludeUserAgents;
  }

  counts(ip: string | undefined, userAgent: string | undefined): boolean {
    if (this.hasRanges && ip !== undefined) {
      const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
      const address = mapped ?? ip;
      const family = net.isIP(address);
      if (family !== 0 && this.ranges.check(address, family === 6 ? 'ipv6' : 'ipv4')) return false;
    }
    if (this.agents.length > 0 && userAgent !== undefined) {
      const ua = userAgent.toLowerCase();
      if (this.agents.some((a) => ua.includes(a))) return false;
    }
    return true;
  }
}
