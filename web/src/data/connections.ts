// Connections as a reader groups them: by content type (the traffic item's `content`: html, image,
// ftp, ...) and, inside it, by the traffic item that opened them. The legends, the connection picker
// and the shared highlight work on flow indices (result.flows), whatever the plot's own order.
import type { Result, Scenario } from '@tcb-lab/sim';

export interface ConnectionInfo {
  flow: number;
  name: string;
  item: string;
  content: string;
}

export interface ItemGroup {
  key: string;
  item: string;
  flows: number[];
}

export interface ContentGroup {
  key: string;
  content: string;
  items: ItemGroup[];
  flows: number[];
}

/** The content type of each traffic item, by name ("unspecified" where the scenario does not say). */
export function itemContents(scenario: Pick<Scenario, 'traffic'> | null | undefined): Map<string, string> {
  const out = new Map<string, string>();
  (scenario?.traffic ?? []).forEach((item, i) => {
    const it = item as { name?: string; type?: string; content?: string };
    const name = it.name ?? `${it.type ?? 'item'}${i}`;
    out.set(name, it.content ?? (it.type === 'bulk' ? 'ftp' : it.type === 'web' ? 'web' : 'unspecified'));
  });
  return out;
}

/**
 * The TCP connections among `flows` (flow indices that a plot shows), with their item and content
 * type from the summary's flow records and the scenario.
 */
export function connectionInfos(
  flows: Iterable<number>,
  names: string[],
  summary: Pick<Result, 'flows'>,
  scenario: Pick<Scenario, 'traffic'> | null | undefined,
): ConnectionInfo[] {
  const records = new Map((summary.flows ?? []).map((f) => [f.id, f]));
  const contents = itemContents(scenario);
  const out: ConnectionInfo[] = [];
  for (const flow of flows) {
    const item = records.get(flow)?.item ?? 'unknown item';
    out.push({ flow, name: names[flow] ?? `flow ${flow}`, item, content: contents.get(item) ?? 'unspecified' });
  }
  return out;
}

/** Content groups in order of first appearance, items inside them likewise, flows in the given order. */
export function groupConnections(infos: ConnectionInfo[]): ContentGroup[] {
  const groups = new Map<string, ContentGroup>();
  for (const c of infos) {
    let g = groups.get(c.content);
    if (!g) {
      g = { key: `content:${c.content}`, content: c.content, items: [], flows: [] };
      groups.set(c.content, g);
    }
    let item = g.items.find((i) => i.item === c.item);
    if (!item) {
      item = { key: `item:${c.item}`, item: c.item, flows: [] };
      g.items.push(item);
    }
    item.flows.push(c.flow);
    g.flows.push(c.flow);
  }
  return [...groups.values()];
}

/**
 * Connections matching a search: every word of the query must occur (case-insensitively) in the
 * connection's name, item or content type.
 */
export function searchConnections(infos: ConnectionInfo[], query: string): ConnectionInfo[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return infos;
  return infos.filter((c) => {
    const text = `${c.name} ${c.item} ${c.content}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/**
 * Which connections the plots draw, and which one is highlighted: shared by every plot of a run.
 * `isolated` (when set) is the only set drawn; `hidden` are left out otherwise.
 */
export interface ConnectionFocus {
  hovered: number | null;
  isolated: ReadonlySet<number> | null;
  hidden: ReadonlySet<number>;
}

export const noFocus: ConnectionFocus = { hovered: null, isolated: null, hidden: new Set() };

/** Whether the plots draw this flow. */
export function isShown(focus: ConnectionFocus, flow: number): boolean {
  return focus.isolated ? focus.isolated.has(flow) : !focus.hidden.has(flow);
}

/** Isolates a set of flows; isolating the same set again shows everything. */
export function isolate(focus: ConnectionFocus, flows: number[]): ConnectionFocus {
  const same = focus.isolated && focus.isolated.size === flows.length && flows.every((f) => focus.isolated!.has(f));
  return { ...focus, isolated: same ? null : new Set(flows) };
}

/** Shows or hides a set of flows (all hidden: shows them, else hides them) and ends isolation. */
export function toggleHidden(focus: ConnectionFocus, flows: number[]): ConnectionFocus {
  const hidden = new Set(focus.hidden);
  const allHidden = flows.every((f) => hidden.has(f));
  for (const f of flows) {
    if (allHidden) hidden.delete(f);
    else hidden.add(f);
  }
  return { ...focus, isolated: null, hidden };
}
