import { Type, type Static } from 'typebox';
import { NullableNumber, Scenario } from './common.js';

export const BatchStatus = Type.Enum(['queued', 'running', 'completed', 'cancelled', 'failed']);
export type BatchStatus = Static<typeof BatchStatus>;
export const RunStatus = Type.Enum(['pending', 'running', 'done', 'failed', 'cancelled']);
export type RunStatus = Static<typeof RunStatus>;
export const Trace = Type.Enum(['none', 'summary'], {
  description: "Trace level of the stored run summaries: 'none' (run totals, the default) or 'summary' (also per-flow, per-link records). The resultHash is the same either way.",
});
export type Trace = Static<typeof Trace>;

export function batchBody(maxReplications: number) {
  return Type.Object(
    {
      scenario: Scenario,
      grid: Type.Record(Type.String({ pattern: '^/' }), Type.Array(Type.Unknown(), { minItems: 1 }), {
        description: 'Values to sweep, by JSON Pointer into the scenario ("/tcp/flavor"); every combination is a grid point, the first pointer varying slowest.',
        // Keys that are not pointers are refused, not let through unchecked
        additionalProperties: false,
      }),
      replications: Type.Integer({ minimum: 1, maximum: maxReplications, description: 'Runs per grid point; replication r runs with seed = seed + r.' }),
      title: Type.Optional(Type.String({ maxLength: 200 })),
      trace: Type.Optional(Trace),
    },
    { additionalProperties: false },
  );
}

export type BatchBody = Static<ReturnType<typeof batchBody>>;

export const BatchCreated = Type.Object({
  id: Type.String(),
  url: Type.String({ description: '/b/<id>' }),
  runs: Type.Integer(),
});
export type BatchCreated = Static<typeof BatchCreated>;

const Stats = Type.Object({
  n: Type.Integer(),
  mean: NullableNumber,
  sd: NullableNumber,
  // [low, high]. Not Type.Tuple: TypeBox writes a tuple as draft-07's array-valued `items`, which
  // OpenAPI 3.1's JSON Schema 2020-12 does not accept (it spells tuples `prefixItems`).
  ci95: Type.Union([Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: 'The 95% confidence interval of the mean: [low, high].' }), Type.Null()]),
});

/** A batch's or a reproduction's runs counted by status. */
export const RunCounts = Type.Object({
  total: Type.Integer(),
  done: Type.Integer(),
  failed: Type.Integer(),
  cancelled: Type.Integer(),
  pending: Type.Integer({ description: 'Not finished: waiting or running.' }),
  running: Type.Integer(),
});
export type RunCounts = Static<typeof RunCounts>;

export const Metric = Type.Object({
  name: Type.String(),
  label: Type.String(),
  unit: Type.String({ description: 'Empty for counts and ratios.' }),
  description: Type.Union([Type.String(), Type.Null()]),
});
export type Metric = Static<typeof Metric>;

export const Batch = Type.Object({
  id: Type.String(),
  url: Type.String(),
  title: Type.Union([Type.String(), Type.Null()]),
  status: BatchStatus,
  createdAt: Type.String({ format: 'date-time' }),
  finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  scenario: Scenario,
  grid: Type.Record(Type.String(), Type.Array(Type.Unknown())),
  pointers: Type.Array(Type.String(), { description: "The grid's pointers in order." }),
  replications: Type.Integer(),
  trace: Trace,
  counts: RunCounts,
  metrics: Type.Array(Metric),
  points: Type.Array(
    Type.Object({
      params: Type.Record(Type.String(), Type.Unknown()),
      runs: Type.Integer({ description: 'Finished runs of the point.' }),
      identicalReplications: Type.Boolean({
        description:
          'True when the point has two or more finished runs and all gave the same value of every metric: the scenario has no randomness the seeds reach (sd 0: "all replications identical").',
      }),
      stats: Type.Record(Type.String(), Stats),
    }),
  ),
});
export type Batch = Static<typeof Batch>;

export const RunResult = Type.Object({
  point: Type.Integer(),
  params: Type.Record(Type.String(), Type.Unknown()),
  replication: Type.Integer(),
  seed: Type.Integer(),
  status: RunStatus,
  metrics: Type.Record(Type.String(), NullableNumber),
  resultHash: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  summary: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
});
export type RunResult = Static<typeof RunResult>;

export const ResultsQuery = Type.Object(
  {
    format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])),
    summary: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'JSON only: include each run summary.' })),
  },
  { additionalProperties: false },
);
