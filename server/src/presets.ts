// The built-in scenarios (presets) and experiments, read from the simulator once at start-up.
import type { PresetInfo } from './schemas/presets.js';
import type { Engine, Paper } from './sim/engine.js';

type PaperOfPreset = NonNullable<PresetInfo['paper']>;

/** A document's `paper: {id, section}`, resolved in the paper catalogue. */
function paperOf(document: Record<string, unknown> | null, catalogue: Map<string, Paper>): PaperOfPreset | null {
  const ref = document?.paper as { id?: unknown; section?: unknown } | undefined;
  const paper = typeof ref?.id === 'string' ? catalogue.get(ref.id) : undefined;
  if (!paper) return null;
  const { id, short, authors, title, year } = paper;
  return { id, short, authors, title, ...(year !== undefined ? { year } : {}), ...(typeof ref?.section === 'string' ? { section: ref.section } : {}) };
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
    const catalogue = new Map((await engine.papers()).map((p) => [p.id, p]));
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
        paper: paperOf(experiment, catalogue) ?? paperOf(scenario, catalogue),
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
