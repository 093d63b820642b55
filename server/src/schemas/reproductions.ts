// Reproductions: a seed paper's experiment run on the queue, and its report. The experiment document
// and the report stand for sim-core's experiment.schema.json and report.schema.json: requests only
// check that a document is an object here, sim-core validates it (its errors carry the document's
// path), and the OpenAPI document replaces both with the real schemas (openapi.ts).
import { Type, type Static } from 'typebox';
import { RunCounts } from './batches.js';

export const ExperimentDocument = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  title: 'ExperimentDocument',
  description: 'An experiment document (sim-core/scenario/schema/experiment.schema.json; `tcpsim schema --experiment`).',
});

export const ExperimentReport = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  title: 'ExperimentReport',
  description: 'The report as `tcpsim reproduce <experiment> --json` prints it (sim-core/scenario/schema/report.schema.json).',
});

export const ReproductionMode = Type.Enum(['full', 'quick'], {
  description: "'full' (the paper's size, `tcpsim reproduce`) or 'quick' (`tcpsim reproduce --quick`).",
});
export type ReproductionMode = Static<typeof ReproductionMode>;

export const ReproductionStatus = Type.Enum(['queued', 'running', 'reporting', 'completed', 'cancelled', 'failed'], {
  description: "'reporting': every run is done and the report is being built.",
});
export type ReproductionStatus = Static<typeof ReproductionStatus>;

export const ReproductionBody = Type.Object(
  {
    experiment: Type.Union(
      [Type.String({ minLength: 1, maxLength: 200, description: 'A built-in experiment: a preset with an experiment (GET /api/presets/{name}/experiment), as `tcpsim experiments` lists them.' }), ExperimentDocument],
      { description: "A built-in experiment's name, or an experiment document." },
    ),
    mode: Type.Optional(ReproductionMode),
  },
  { additionalProperties: false },
);
export type ReproductionBody = Static<typeof ReproductionBody>;

export const ReproductionCreated = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'The page of the reproduction: /r/<id>' }),
  runs: Type.Integer({ description: 'Runs in the plan: variants x points x replications.' }),
});
export type ReproductionCreated = Static<typeof ReproductionCreated>;

export const Reproduction = Type.Object({
  id: Type.String(),
  url: Type.String(),
  experiment: Type.String({ description: "The experiment's name." }),
  title: Type.String(),
  mode: ReproductionMode,
  status: ReproductionStatus,
  createdAt: Type.String({ format: 'date-time' }),
  finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  counts: RunCounts,
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why it failed: the first failed run (by index) or the report.' }),
  report: Type.Optional(ExperimentReport),
});
export type Reproduction = Static<typeof Reproduction>;

export const ReportQuery = Type.Object(
  {
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('text')], { description: "'json' (default): the report's JSON text exactly as `tcpsim reproduce --json` prints it; 'text': its tables." })),
  },
  { additionalProperties: false },
);
