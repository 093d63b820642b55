import { Type } from 'typebox';

export const PresetInfo = Type.Object({
  name: Type.String(),
  title: Type.String(),
  description: Type.String(),
  reference: Type.String({ description: "Where the scenario comes from, as the preset says (e.g. 'E-TCP §3.4, Fig. 4')." }),
  paper: Type.Union([Type.String(), Type.Null()], { description: 'The seed paper the reference names, if any.' }),
  experiment: Type.Boolean({ description: 'The preset is the base scenario of a built-in experiment (GET /api/presets/:name/experiment).' }),
});

export const PresetParams = Type.Object({ name: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,100}$' }) });
