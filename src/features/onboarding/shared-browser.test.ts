import { execFileSync } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressProxy } from './egress-proxy.js';
import { BrowserUnavailableError, SharedBrowser, findChromium } from './shared-browser.js';
import { TargetGuard } from './target-guard.js';

/**
 * The scanner's Chromium: sandboxed as an unprivileged user where the platform allows it, falling back
 * with a warning (or refusing, with SCAN_REQUIRE_SANDBOX) where it does not, and never sending WebRTC UDP
 * past the egress proxy.
 */
const isRoot = process.getuid?.() === 0;
const CHROMIUM = findChromium(undefined);
if (!CHROMIUM) throw new Error('Chromium not found: apt-get install -y chromium (npm test installs it as root)');

/** Whether this machine lets the account Chromium would run as create user namespaces (what its sandbox needs). */
function namespacesAllowed(): boolean {
  try {
    const asUser = isRoot ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'] : [];
    execFileSync(asUser[0] ?? 'unshare', [...asUser.slice(1), ...(isRoot ? ['unshare'] : []), '-U', '-r', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function logger() {
  const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
  const log = Fastify({ logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } } }).log;
  return { log, warnings: () => lines.filter((l) => l.level === 40).map((l) => l.msg) };
}

/** The Chromium processes on a profile folder, with their uid, seccomp mode and command line. */
function processesOf(profileDir: string) {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        // Chromium rewrites its process title into one space-separated string.
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
        if (!cmdline.some((arg) => arg.includes(profileDir))) return [];
        const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
        const field = (name: string) => new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1];
        return [{ cmdline, uid: Number(field('Uid')), seccomp: Number(field('Seccomp')) }];
      } catch {
        return [];
      }
    })
    .filter((p) => p.cmdline[0]?.endsWith('chromium') || p.cmdline.some((arg) => arg.startsWith('--type=')));
}

describe('the scanner\'s Chromium', () => {
  const guard = new TargetGuard({ allowPrivateNetworks: false });
  let proxy: EgressProxy;
  beforeAll(() => {
    proxy = new EgressProxy(guard, Fastify({ logger: false }).log);
  });
  afterAll(() => proxy.close());

  it('runs sandboxed, as an unprivileged user when Placet runs as root, where the platform allows it', async () => {
    const { log, warnings } = logger();
    const browser = new SharedBrowser({ chromiumPath: undefined, chromiumUser: 'nobody', proxyUrl: () => proxy.start(), log });
    try {
      const context = await (await browser.get()).newContext();
      const page = await context.newPage();
      await page.setContent('<p>renderer</p>');
      const profileDir = (await browser.profileDir())!;
      const processes = processesOf(profileDir);
      expect(processes.some((p) => p.cmdline.includes('--type=renderer'))).toBe(true);
      // Whoever runs the tests, Chromium never runs as root.
      expect(processes.every((p) => p.uid !== 0)).toBe(true);
      if (isRoot) expect(processes.every((p) => p.uid === 65534)).toBe(true);
      if (namespacesAllowed()) {
        expect(await browser.isolation()).toEqual({ sandbox: true, user: isRoot ? 'nobody' : undefined });
        expect(processes.flatMap((p) => p.cmdline).filter((arg) => arg === '--no-sandbox')).toEqual([]);
        // Renderers run under seccomp-bpf (mode 2), which only the sandbox sets up.
        for (const p of processes.filter((q) => q.cmdline.includes('--type=renderer'))) expect(p.seccomp).toBe(2);
        expect(warnings()).toEqual([]);
      } else {
        expect(await browser.isolation()).toMatchObject({ sandbox: false });
        expect(warnings().join('\n')).toMatch(/without it/);
      }
      await context.close();
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('says why in a warning when, run as root, it has no account to switch to', async () => {
    const { log, warnings } = logger();
    const browser = new SharedBrowser({ chromiumPath: undefined, chromiumUser: 'no-such-user-placet', proxyUrl: () => proxy.start(), log });
    try {
      await browser.get();
      // As root Chromium's sandbox cannot start, so it runs without; as any other user the account is not needed.
      const expected = isRoot ? { sandbox: false, user: undefined } : { sandbox: namespacesAllowed(), user: undefined };
      expect(await browser.isolation()).toEqual(expected);
      if (isRoot) {
        expect(warnings()).toEqual([
          expect.stringContaining('no user no-such-user-placet'),
          expect.stringContaining('cannot start with its sandbox'),
        ]);
      }
    } finally {
      await browser.close();
    }
  }, 60_000);

  describe('where the sandbox cannot start', () => {
    // A Chromium that, like one on a platform without user namespaces, starts only with --no-sandbox.
    let dir: string;
    let fake: string;
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'placet-nosandbox-'));
      fs.chmodSync(dir, 0o755);
      fake = path.join(dir, 'chromium');
      fs.writeFileSync(
        fake,
        `#!/bin/sh\ncase " $* " in *" --no-sandbox "*) exec '${CHROMIUM}' "$@";; esac\necho "No usable sandbox!" >&2\nexit 1\n`,
        { mode: 0o755 },
      );
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('falls back to running without it, with a logged warning', async () => {
      const { log, warnings } = logger();
      const browser = new SharedBrowser({ chromiumPath: fake, chromiumUser: 'nobody', proxyUrl: () => proxy.start(), log });
      try {
        await browser.get();
        expect(await browser.isolation()).toEqual({ sandbox: false, user: isRoot ? 'nobody' : undefined });
        expect(warnings()).toEqual([expect.stringContaining('cannot start with its sandbox')]);
      } finally {
        await browser.close();
      }
    }, 60_000);

    it('refuses to run without it with requireSandbox, so scans crawl over HTTP only', async () => {
      const { log } = logger();
      const browser = new SharedBrowser({ chromiumPath: fake, chromiumUser: 'nobody', requireSandbox: true, proxyUrl: () => proxy.start(), log });
      try {
        const err = await browser.get().then(() => undefined, (e: unknown) => e);
        expect(err).toBeInstanceOf(BrowserUnavailableError);
        expect((err as Error).message).toMatch(/sandbox/);
        expect(await browser.isolation()).toBeUndefined();
      } finally {
        await browser.close();
      }
    }, 60_000);
  });

  it('sends no WebRTC UDP to a loopback STUN or TURN server', async () => {
    const socket = dgram.createSocket('udp4');
    const received: string[] = [];
    socket.on('message', (_msg, from) => received.push(`${from.address}:${from.port}`));
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const port = socket.address().port;
    const { log } = logger();
    const browser = new SharedBrowser({ chromiumPath: undefined, chromiumUser: 'nobody', proxyUrl: () => proxy.start(), log });
    try {
      const context = await (await browser.get()).newContext();
      const page = await context.newPage();
      await page.setContent('<p>webrtc</p>');
      const gathered = await page.evaluate(async (p) => {
        const pc = new RTCPeerConnection({
          iceServers: [
            { urls: `stun:127.0.0.1:${p}` },
            { urls: `turn:127.0.0.1:${p}?transport=udp`, username: 'u', credential: 'c' },
          ],
        });
        const candidates: string[] = [];
        pc.onicecandidate = (e) => {
          if (e.candidate) candidates.push(e.candidate.candidate);
        };
        pc.createDataChannel('x');
        await pc.setLocalDescription(await pc.createOffer());
        // Gathering ends by itself; STUN retransmits for several seconds, so wait for "complete" or 8 s.
        await new Promise<void>((resolve) => {
          const done = () => pc.iceGatheringState === 'complete' && resolve();
          pc.onicegatheringstatechange = done;
          setTimeout(resolve, 8000);
          done();
        });
        pc.close();
        return candidates;
      }, port);
      expect(received).toEqual([]);
      // No host or server-reflexive UDP candidate was offered either.
      expect(gathered.filter((c) => / udp /i.test(c))).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
      socket.close();
    }
  }, 60_000);
});
