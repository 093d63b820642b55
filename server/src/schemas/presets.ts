import { Type, type Static } from 'typebox';

export const PresetInfo = Type.Object({
  name: Type.String(),
  title: Type.String(),
  description: Type.String(),
  reference: Type.String({ description: "Where the scenario comes from, as the preset says (e.g. 'E-TCP §3.4, Fig. 4')." }),
  paper: Type.Union(
    [
      Type.Object({
        id: Type.String({ description: 'The entry of the paper catalogue (tcpsim papers).' }),
        short: Type.String({ description: 'How the product names it, e.g. "E-TCP", "RFC 9040".' }),
        authors: Type.String(),
        title: Type.String(),
        year: Type.Optional(Type.Integer()),
        section: Type.Optional(Type.String({ description: 'The section, table or figure the preset reproduces.' })),
      }),
      Type.Null(),
    ],
    { description: 'The paper, thesis or RFC the preset comes from.' },
  ),
  experiment: Type.Boolean({ description: 'The preset is the base scenario of a built-in experiment (GET /api/presets/:name/experiment).' }),
});

export type PresetInfo = Static<typeof PresetInfo>;

export const PresetParams = Type.Object({ name: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,100}$' }) });
