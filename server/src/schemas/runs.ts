import { Type } from 'typebox';
import { Scenario } from './common.js';

export const RunBody = Type.Object(
  {
    scenario: Scenario,
    trace: Type.Optional(Type.Union([Type.Literal('none'), Type.Literal('summary')], { description: "Default 'summary'." })),
  },
  { additionalProperties: false },
);
