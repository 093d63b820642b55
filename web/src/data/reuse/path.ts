// The path a reuse question runs on: a path preset's topology with a place for the visit's server
// and a competitor's, who sends to whom, and the path in one line (bottleneck, round trip, queue).
import type { Json, Scenario } from '@tcb-lab/sim';

type JsonObject = { [key: string]: Json };

/** Where the visits go on a path: the hosts of copy 0 (the visit) and copy 1 (the competitor). */
export interface PathRoles {
  topology: JsonObject;
  /** `to` of the traffic item: the server of copy i ("server{i}", "left{i}"). */
  serverTemplate: string;
  /** `from` of the traffic item: the client of copy i. */
  clientTemplate: string;
  /** Copy i's server and client. */
  servers: string[];
  clients: string[];
  /** The slowest link on the visit's path, and the path's round-trip propagation delay. */
  bottleneckMbps: number;
  rttS: number;
  queue: string;
}

function queueText(queue: Json | undefined): string {
  if (queue && typeof queue === 'object' && !Array.isArray(queue)) {
    if ('packets' in queue) return `a ${queue.packets}-packet queue`;
    if ('bytes' in queue) return `a ${queue.bytes}-byte queue`;
  }
  return 'an unlimited queue';
}

/** Shortest path by hops between two nodes of a custom topology, as its links. */
function customPath(links: JsonObject[], from: string, to: string): JsonObject[] | null {
  const previous = new Map<string, { node: string; link: JsonObject }>();
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift()!;
    if (at === to) break;
    for (const l of links) {
      const next = l.a === at ? (l.b as string) : l.b === at ? (l.a as string) : null;
      if (next === null || seen.has(next)) continue;
      seen.add(next);
      previous.set(next, { node: at, link: l });
      queue.push(next);
    }
  }
  if (!seen.has(to)) return null;
  const path: JsonObject[] = [];
  for (let at = to; at !== from; at = previous.get(at)!.node) path.unshift(previous.get(at)!.link);
  return path;
}

/**
 * The path of a scenario for `copies` copies of the visit: the topology (with a second server when
 * there are two copies), and who sends to whom. Dumbbells use pairs 0 and 1; in a custom topology
 * the data sender of the first traffic item is the server, renamed "<server>0", and the competitor's
 * server "<server>1" is attached as it is. Throws for a topology with no place for a second server.
 */
export function pathRoles(path: Scenario, copies: 1 | 2): PathRoles {
  const topology = structuredClone(path.topology) as unknown as JsonObject;
  if (topology.kind === 'dumbbell') {
    const bottleneck = topology.bottleneck as JsonObject;
    const access = topology.access as JsonObject;
    topology.pairs = Math.max(topology.pairs as number, copies);
    return {
      topology,
      serverTemplate: 'left{i}',
      clientTemplate: 'right{i}',
      servers: ['left0', 'left1'].slice(0, copies),
      clients: ['right0', 'right1'].slice(0, copies),
      bottleneckMbps: Math.min(bottleneck.bandwidthMbps as number, access.bandwidthMbps as number),
      rttS: (2 * ((bottleneck.delayMs as number) + 2 * (access.delayMs as number))) / 1000,
      queue: queueText(bottleneck.queue),
    };
  }
  if (topology.kind === 'custom') {
    const first = (path.traffic as unknown as JsonObject[])[0];
    // The server sends the data: a web client's `to`, any other item's `from`.
    const server = String(first.type === 'web' ? first.to : first.from);
    const client = String(first.type === 'web' ? first.from : first.to);
    if (server.includes('{') || client.includes('{')) throw new Error(`the path's first traffic item names its hosts with a template (${server} to ${client})`);
    const nodes = topology.nodes as JsonObject[];
    const links = topology.links as JsonObject[];
    const route = customPath(links, server, client);
    if (!route) throw new Error(`the path has no route from ${server} to ${client}`);
    const server0 = `${server}0`;
    const server1 = `${server}1`;
    for (const taken of [server0, server1]) if (nodes.some((n) => n.name === taken)) throw new Error(`the path already has a node named ${taken}`);
    const rename = (name: Json) => (name === server ? server0 : name);
    topology.nodes = nodes.map((n) => ({ ...n, name: rename(n.name) }));
    topology.links = links.map((l) => ({ ...l, a: rename(l.a), b: rename(l.b) }));
    if (copies === 2) {
      // The competitor's server: a copy of the server's links (no explicit address or name).
      (topology.nodes as JsonObject[]).push({ name: server1 });
      for (const l of links) {
        if (l.a !== server && l.b !== server) continue;
        const { name: _name, ...copy } = l;
        (topology.links as JsonObject[]).push({ ...copy, a: l.a === server ? server1 : l.a, b: l.b === server ? server1 : l.b });
      }
    }
    const slowest = route.reduce((a, b) => ((b.bandwidthMbps as number) < (a.bandwidthMbps as number) ? b : a));
    return {
      topology,
      serverTemplate: `${server}{i}`,
      clientTemplate: client,
      servers: [server0, server1].slice(0, copies),
      clients: [client, client].slice(0, copies),
      bottleneckMbps: slowest.bandwidthMbps as number,
      rttS: (2 * route.reduce((s, l) => s + (l.delayMs as number), 0)) / 1000,
      queue: queueText(slowest.queue),
    };
  }
  throw new Error(`a ${String(topology.kind)} topology has no place for a competitor’s server; choose a dumbbell or a custom topology`);
}

const mbps = (v: number) => (v >= 1 ? `${+v.toPrecision(3)} Mb/s` : `${+(v * 1000).toPrecision(3)} kb/s`);

/** One line about a path: its bottleneck, round trip and queue. */
export function describePath(path: Scenario, label?: string): string {
  try {
    const r = pathRoles(path, 1);
    const tcp = (path.tcp ?? {}) as JsonObject;
    const facts = `${mbps(r.bottleneckMbps)}, ${Math.round(r.rttS * 1000)} ms RTT, ${r.queue}, ${tcp.flavor ?? 'newreno'}`;
    return label ? `${label}: ${facts}` : facts;
  } catch (e) {
    return `${label ?? path.name}: ${e instanceof Error ? e.message : String(e)}`;
  }
}
