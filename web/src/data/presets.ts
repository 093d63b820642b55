// The seed papers, and presets and experiments grouped by the paper they come from, recognised by
// name prefix or by the paper named in their `reference`, so that new ones find their group. All of
// the grouping is here: when presets and experiments carry a structured paper field, paperOf reads it.
export interface Paper {
  key: string;
  title: string;
  /** What the paper showed, in one line. */
  finding: string;
  prefixes: string[];
  reference: RegExp;
  /** The reproduction document, docs/reproduction/<docFile>, when the paper has one. */
  docFile?: string;
}

export const papers: Paper[] = [
  {
    key: 'etcp',
    docFile: 'etcp.md',
    title: 'Eggert, Heidemann, Touch: Effects of Ensemble-TCP',
    finding: 'One window per ensemble, scheduled by tickets and cached for reuse, delivers HTML and whole pages sooner than independent connections (Figs. 5, 6).',
    prefixes: ['etcp-'],
    reference: /E-TCP|Ensemble-TCP|Eggert/i,
  },
  {
    key: 'tcpint',
    docFile: 'tcpint.md',
    title: 'Balakrishnan et al.: TCP Behavior of a Busy Internet Server (TCP-INT)',
    finding: 'Integrated congestion control and loss recovery across a host\'s parallel connections avoids timeouts that independent connections with small windows suffer (§5).',
    prefixes: ['tcpint-', 'right-edge'],
    reference: /TCP-INT|Balakrishnan/i,
  },
  {
    key: 'rfc9040',
    title: 'RFC 2140 / RFC 9040: TCP Control Block Interdependence',
    finding: 'Temporal and ensemble sharing let new connections start from what earlier or concurrent ones learned about the path.',
    prefixes: ['rfc9040-', 'rfc2140-'],
    reference: /RFC ?(2140|9040)/i,
  },
  {
    key: 'savoric',
    docFile: 'savoric.md',
    title: 'Savorić, Karl, Wolisz: TCP Control Block Interdependence in Fixed Networks',
    finding: 'MV- and FS-TCBI controllers raise the throughput of new connections beside established ones without hurting fairness (Tables 2–5).',
    prefixes: ['savoric-', 'tcbi-'],
    reference: /Savori/i,
  },
  {
    key: 'gurkan',
    docFile: 'gurkan.md',
    title: 'Gürkan: HTTP Performance and its Interaction with TCP',
    finding: 'Persistent pipelined HTTP/1.1 and larger initial windows retrieve pages faster than serial or parallel HTTP/1.0 (Tables 4.2–4.10).',
    prefixes: ['gurkan-'],
    reference: /G[üu]rkan/i,
  },
  {
    key: 'spand',
    docFile: 'spand.md',
    title: 'Zhang, Qiu, Keshav: Speeding Up Short Data Transfers (TCP/SPAND)',
    finding: 'Starting short transfers with the optimal paced window learned by a performance gateway cuts their completion time (Figs. 10–19).',
    prefixes: ['spand-'],
    reference: /SPAND/i,
  },
  {
    key: 'schemes',
    title: 'Scheme comparison',
    finding: 'The same web-like workload under each sharing scheme, on the same seed.',
    prefixes: ['scheme-'],
    reference: /Scheme comparison/i,
  },
];

export const otherPaper: Paper = {
  key: 'other',
  title: 'Other scenarios',
  finding: 'Benchmarks and single mechanisms.',
  prefixes: [],
  reference: /$^/,
};

export interface PresetInfo {
  name: string;
  description: string;
  reference: string;
}

/** The paper a preset belongs to: by name prefix first, then by its reference. */
export function paperOf(preset: PresetInfo): Paper {
  return (
    papers.find((p) => p.prefixes.some((prefix) => preset.name.startsWith(prefix))) ??
    papers.find((p) => p.reference.test(preset.reference)) ??
    otherPaper
  );
}

export function groupPresets<P extends PresetInfo>(presets: P[]): { paper: Paper; presets: P[] }[] {
  const groups = new Map<string, { paper: Paper; presets: P[] }>();
  for (const paper of [...papers, otherPaper]) groups.set(paper.key, { paper, presets: [] });
  for (const preset of presets) groups.get(paperOf(preset).key)!.presets.push(preset);
  return [...groups.values()].filter((g) => g.presets.length > 0);
}

/** The first sentence of a description, for one-line listings. */
export function firstSentence(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ');
  // A sentence ends at . ! or ? before a space and a capital letter or an opening bracket, but not
  // after an abbreviation (Fig., e.g., et al.) or inside brackets.
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if ((c === '.' || c === '!' || c === '?') && depth === 0 && (i + 1 === t.length || t[i + 1] === ' ')) {
      const before = t.slice(0, i).split(' ').pop() ?? '';
      if (/^(Fig|Figs|Eq|Sec|Tab|e\.g|i\.e|al|cf|vs|No)$/.test(before)) continue;
      return t.slice(0, i + 1);
    }
  }
  return t;
}

/**
 * A reference as readers should see it: without a bracketed label of our own work tracking, which
 * some preset references still carry (the structured paper field will replace this).
 */
export function displayReference(reference: string): string {
  return reference.replace(/\s*\((?:issue|task|ticket)\s*#?\d+\)/gi, '').trim();
}
