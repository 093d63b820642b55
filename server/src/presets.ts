// The built-in scenarios (presets) and experiments, read from the simulator once at start-up.
import type { Engine } from './sim/engine.js';

export interface PresetInfo {
  name: string;
  title: string;
  description: string;
  reference: string;
  paper: string | null;
  experiment: boolean;
}

// The seed papers (../shared/seeds/README.md), by the names presets' references use for them.
const seedPapers: ReadonlyArray<[RegExp, string]> = [
  [/E-TCP|Eggert/, 'Eggert, Heidemann, Touch: Effects of Ensemble-TCP (2000)'],
  [/Savori/, 'Savorić, Karl, Wolisz: TCP Control Block Interdependence in Fixed Networks'],
  [/Gürkan|Gurkan/, 'Gürkan: A Simulation Study on HTTP Performance Analysis in Terms of its Interaction with TCP (1998)'],
  [/Balakrishnan|TCP-INT/, 'Balakrishnan, Padmanabhan, Seshan, Stemm, Katz: TCP Behavior of a Busy Internet Server (INFOCOM 1998)'],
  [/SPAND|Zhang/, 'Zhang, Qiu, Keshav: Speeding Up Short Data Transfers (TCP/SPAND)'],
];

export function paperOf(reference: string): string | null {
  return seedPapers.find(([pattern]) => pattern.test(reference))?.[1] ?? null;
}

/** The first sentence of a description, as a title when the preset has none of its own. */
function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end < 0 ? text : text.slice(0, end);
}

export class PresetCatalog {
  private constructor(
    readonly list: PresetInfo[],
    private readonly scenarios: Map<string, Record<string, unknown>>,
    private readonly experiments: Map<string, Record<string, unknown>>,
  ) {}

  static async load(engine: Engine): Promise<PresetCatalog> {
    const names = await engine.presets();
    const experimentNames = new Set(await engine.experiments());
    const scenarios = new Map<string, Record<string, unknown>>();
    const experiments = new Map<string, Record<string, unknown>>();
    const list: PresetInfo[] = [];
    for (const name of names) {
      const scenario = await engine.preset(name);
      if (!scenario) continue;
      scenarios.set(name, scenario);
      const experiment = experimentNames.has(name) ? await engine.experiment(name) : null;
      if (experiment) experiments.set(name, experiment);
      const description = String(scenario.description ?? '');
      const reference = String(experiment?.reference ?? scenario.reference ?? '');
      list.push({
        name,
        title: typeof experiment?.title === 'string' ? experiment.title : firstSentence(description) || name,
        description,
        reference,
        paper: paperOf(reference),
        experiment: experiment !== null,
      });
    }
    return new PresetCatalog(list, scenarios, experiments);
  }

  scenario(name: string): Record<string, unknown> | undefined {
    return this.scenarios.get(name);
  }

  experiment(name: string): Record<string, unknown> | undefined {
    return this.experiments.get(name);
  }
}
