import { Type, type Static } from 'typebox';

const Work = Type.Object({ pending: Type.Integer(), running: Type.Integer() });

export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Type.Object({
    ok: Type.Boolean(),
    latencyMs: Type.Optional(Type.Number()),
    error: Type.Optional(Type.String({ description: 'What failed, in general words and an error code (never an address).' })),
  }),
  queue: Type.Object({
    ok: Type.Boolean(),
    workers: Type.Integer({ description: 'Worker processes with a recent heartbeat.' }),
    pending: Type.Integer({ description: 'Runs waiting for a worker, of every kind.' }),
    running: Type.Integer(),
    kinds: Type.Optional(
      Type.Object(
        { batches: Work, reproductions: Work, experiments: Work },
        { description: "The runs by kind: batches' runs, reproductions' runs, and the runs that check saved experiments." },
      ),
    ),
    error: Type.Optional(Type.String()),
  }),
  engine: Type.String({ description: 'What synchronous runs use here: native or wasm.' }),
});
export type Health = Static<typeof Health>;
