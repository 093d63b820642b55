import { Type, type Static } from 'typebox';
import { Result, Scenario } from './common.js';

export const ExperimentBody = Type.Object(
  {
    scenario: Scenario,
    result: Type.Optional(Result),
    title: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type ExperimentBody = Static<typeof ExperimentBody>;

export const ExperimentCreated = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'The share link: /e/<id>' }),
  resultHash: Type.Union([Type.String(), Type.Null()]),
  verified: Type.Boolean({ description: 'The server ran the scenario and obtained this resultHash itself.' }),
});
export type ExperimentCreated = Static<typeof ExperimentCreated>;

export const Experiment = Type.Object({
  id: Type.String(),
  url: Type.String(),
  title: Type.Union([Type.String(), Type.Null()]),
  scenario: Scenario,
  result: Type.Union([Result, Type.Null()]),
  resultHash: Type.Union([Type.String(), Type.Null()]),
  verified: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type Experiment = Static<typeof Experiment>;
