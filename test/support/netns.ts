// Isolated test networks in Linux network namespaces, for end-to-end tests that need several
// hosts (the P2P layer, issue 17) or must show that a test node dials nobody. Root only.
//
// Design: one namespace per host, each with its loopback up and one veth `eth0` holding the
// host's address; the other ends of the veths sit on a bridge in a hub namespace. One namespace
// with N addresses would be fewer commands, but its nodes would share one port space (two
// nodes could not both listen on 0.0.0.0 at the P2P port) and an outgoing connection would
// leave from the interface's first address, so a peer would see the wrong host. Only veth and
// bridge are used: some CI kernels (e.g. Firecracker VMs) have no `dummy` driver.
//
// Isolation: addresses are from 198.18.0.0/24 and exist only inside the namespaces (the host's
// own namespace gets nothing, not even a route). No namespace has a default route, so a connect
// to any other address fails with ENETUNREACH and the resolver's name server is unreachable.
// IPv6 is off in every namespace, so the kernel sends nothing on its own (no DAD, no router
// solicitations) and packet counters count only what processes sent.
//
// Why 198.18.0.0/24: it lies in 198.18.0.0/15, the block RFC 2544 sets aside for benchmarking
// (special-purpose in RFC 6890, never routed on the internet), so no test address can be a
// real host's. A private block would not do: Epic's `find_peer_addrs` (p2p/src/peers.rs) never
// puts loopback, unspecified, 10/8, 172.16/12 or 192.168/16 addresses in a PeerAddrs reply, and
// on mainnet `peer_addrs_received` drops them, so peers exchanged between test hosts must have
// addresses outside those classes. 198.18/15 is in none of them.
//
// Names: `mwt-<pid>-<n>` (the hub, or a sealed host) and `mwt-<pid>-<n>-<i>` (host i), so a
// later run can delete what a crashed run left behind: `sweepStaleNamespaces` removes `mwt-*`
// namespaces whose pid is dead, never one of a live process, and nothing without the prefix.
import { execFile, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

/** The addresses' /24; hosts are .1, .2, … in creation order. */
export const TEST_SUBNET = '198.18.0';

const NAME = /^mwt-(\d+)-\d+(?:-\d+)?$/;
let created = 0;
const live = new Set<string>();

// Deleted at exit too, in case a test file ends without reaching its `after` hook.
process.on('exit', () => {
  for (const ns of live) spawnSync('ip', ['netns', 'delete', ns]);
});

/** Runs `ip` and returns its stdout; throws with its stderr when it fails. */
function ip(args: readonly string[]): string {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

/** The argv prefix that runs a command inside namespace `ns`. */
export function inNamespace(ns: string): string[] {
  return ['ip', 'netns', 'exec', ns];
}

/**
 * Why namespace tests cannot run here (not root, no usable `ip netns`), or null when they can.
 * On CI (`CI` set) they must run, so this throws there instead of letting the tests skip.
 */
export function netnsSkipReason(): string | null {
  let reason: string | null = null;
  if (process.getuid?.() !== 0) reason = 'network namespaces need root';
  else if (spawnSync('ip', ['netns', 'list']).status !== 0) reason = '`ip netns` is unavailable';
  if (reason !== null && process.env.CI) throw new Error(`${reason}, but CI must run these tests`);
  return reason;
}

const pidAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Deletes `mwt-*` namespaces left by runs whose process is gone; returns their names. */
export function sweepStaleNamespaces(): string[] {
  let names: string[];
  try {
    names = readdirSync('/run/netns');
  } catch {
    return [];
  }
  const stale = names.filter((n) => {
    const m = NAME.exec(n);
    return m !== null && !pidAlive(Number(m[1]));
  });
  for (const ns of stale) spawnSync('ip', ['netns', 'delete', ns]);
  return stale;
}

/** A fresh namespace with loopback up and IPv6 off; deleted by `destroy` or at exit. */
function addNamespace(ns: string): void {
  ip(['netns', 'add', ns]);
  live.add(ns);
  ip(['-n', ns, 'link', 'set', 'lo', 'up']);
  // Before any other interface exists, so none of them ever gets an IPv6 address (a kernel
  // without IPv6 has no such switch and needs none).
  const v6 = '/proc/sys/net/ipv6/conf';
  const off = `[ ! -d ${v6} ] || { echo 1 > ${v6}/all/disable_ipv6 && echo 1 > ${v6}/default/disable_ipv6; }`;
  ip(['netns', 'exec', ns, 'sh', '-c', off]);
}

function deleteNamespaces(names: readonly string[]): void {
  for (const ns of names) {
    if (!live.delete(ns)) continue;
    spawnSync('ip', ['netns', 'delete', ns]);
  }
}

export interface TestHost {
  /** The host's namespace; run commands in it with `inNamespace(ns)`. */
  readonly ns: string;
  /** Its IPv4 address, reachable from the other hosts of its net only. */
  readonly addr: string;
}

export interface TestNet {
  readonly hosts: readonly TestHost[];
  /** Deletes every namespace of the net (idempotent); processes inside should be stopped first. */
  destroy(): void;
}

/** `hostCount` hosts on one bridge, each in its own namespace with its own address. */
export function createTestNet(hostCount: number): TestNet {
  const hub = `mwt-${process.pid}-${created++}`;
  const names = [hub];
  const hosts: TestHost[] = [];
  try {
    addNamespace(hub);
    ip(['-n', hub, 'link', 'add', 'br0', 'type', 'bridge']);
    ip(['-n', hub, 'link', 'set', 'br0', 'up']);
    for (let i = 1; i <= hostCount; i++) {
      const host = { ns: `${hub}-${i}`, addr: `${TEST_SUBNET}.${i}` };
      names.push(host.ns);
      addNamespace(host.ns);
      ip([
        '-n',
        hub,
        'link',
        'add',
        `h${i}`,
        'type',
        'veth',
        'peer',
        'name',
        'eth0',
        'netns',
        host.ns,
      ]);
      ip(['-n', hub, 'link', 'set', `h${i}`, 'master', 'br0', 'up']);
      ip(['-n', host.ns, 'addr', 'add', `${host.addr}/24`, 'dev', 'eth0']);
      ip(['-n', host.ns, 'link', 'set', 'eth0', 'up']);
      hosts.push(host);
    }
  } catch (e) {
    deleteNamespaces(names);
    throw e;
  }
  return { hosts, destroy: () => deleteNamespaces(names) };
}

export interface SealedHost extends TestHost {
  destroy(): void;
}

/**
 * One namespace in which every packet a process sends is counted: besides loopback it has a veth
 * `out0` (address `<subnet>.1`, ARP off) carrying the default route, whose peer `sink0` in the same
 * namespace drops everything. A connect to any non-local address thus puts a packet on `out0`'s
 * transmit counter and leaves a SYN-SENT socket, where a namespace with loopback alone would
 * fail the connect at once (ENETUNREACH) and leave no trace to observe. Nothing leaves it.
 */
export function createSealedHost(): SealedHost {
  const ns = `mwt-${process.pid}-${created++}`;
  try {
    addNamespace(ns);
    ip(['-n', ns, 'link', 'add', 'out0', 'type', 'veth', 'peer', 'name', 'sink0']);
    ip(['-n', ns, 'link', 'set', 'out0', 'arp', 'off', 'up']);
    ip(['-n', ns, 'link', 'set', 'sink0', 'up']);
    ip(['-n', ns, 'addr', 'add', `${TEST_SUBNET}.1/24`, 'dev', 'out0']);
    ip(['-n', ns, 'route', 'add', 'default', 'dev', 'out0']);
  } catch (e) {
    deleteNamespaces([ns]);
    throw e;
  }
  return { ns, addr: `${TEST_SUBNET}.1`, destroy: () => deleteNamespaces([ns]) };
}

/** Packets each interface of `ns` has transmitted, by name. */
export function txPackets(ns: string): Record<string, number> {
  const links = JSON.parse(ip(['-n', ns, '-s', '-j', 'link', 'show'])) as {
    ifname: string;
    stats64: { tx: { packets: number } };
  }[];
  return Object.fromEntries(links.map((l) => [l.ifname, l.stats64.tx.packets]));
}

/** TCP and UDP sockets of `ns` as `proto state local peer`, e.g. `tcp LISTEN 198.18.0.1:80 0.0.0.0:*`. */
export function inetSockets(ns: string): string[] {
  const out = ip([...inNamespace(ns).slice(1), 'ss', '-H', '-n', '-a', '-t', '-u']);
  return out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const [proto, state, , , local, peer] = l.trim().split(/\s+/);
      return `${proto} ${state} ${local} ${peer}`;
    });
}

/** Addresses and routes in the test subnet in the namespace this process runs in (expected: none). */
export function subnetTracesHere(): string[] {
  const links = JSON.parse(ip(['-4', '-j', 'addr', 'show'])) as {
    addr_info: { local: string }[];
  }[];
  const routes = JSON.parse(ip(['-4', '-j', 'route', 'show', 'table', 'all'])) as { dst: string }[];
  const inSubnet = (a: string) => a.startsWith(`${TEST_SUBNET}.`);
  const addrs = links.flatMap((l) => l.addr_info.map((i) => i.local)).filter(inSubnet);
  return [...addrs, ...routes.map((r) => r.dst).filter(inSubnet)];
}

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `argv` inside `ns` to its end (killed after `timeoutMs`). */
export function runIn(ns: string, argv: readonly string[], timeoutMs = 10_000): Promise<Run> {
  const [command, ...args] = [...inNamespace(ns), ...argv];
  return new Promise((resolve) => {
    execFile(command ?? 'ip', args, { timeout: timeoutMs }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}
