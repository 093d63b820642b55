import { Type, type Static } from 'typebox';

export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Type.Object({
    ok: Type.Boolean(),
    latencyMs: Type.Optional(Type.Number()),
    error: Type.Optional(Type.String()),
  }),
  queue: Type.Object({
    ok: Type.Boolean(),
    workers: Type.Integer({ description: 'Worker processes with a recent heartbeat.' }),
    pending: Type.Integer({ description: 'Runs waiting for a worker.' }),
    running: Type.Integer(),
    error: Type.Optional(Type.String()),
  }),
  engine: Type.String({ description: 'What synchronous runs use here: native or wasm.' }),
});
export type Health = Static<typeof Health>;
