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

/** How far the service has checked a saved experiment's numbers (migrations/0006_experiment-verification.sql). */
export const Verification = Type.Union(
  [Type.Literal('verified'), Type.Literal('pending'), Type.Literal('differs'), Type.Literal('failed'), Type.Literal('unverified')],
  {
    description:
      "verified: the service computed the result (and a submitted result agreed with every number); pending: a run on the queue computes it; differs: the service's result and the submitted one differ (verificationError says where); failed: the service could not run it (verificationError says why); unverified: saved before the service checked experiments, the result is the client's.",
  },
);
export type Verification = Static<typeof Verification>;

export const ExperimentCreated = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'The share link: /e/<id>' }),
  resultHash: Type.Union([Type.String(), Type.Null()], { description: "The service's resultHash; null while pending." }),
  verified: Type.Boolean({ description: 'The service ran the scenario, and a submitted result agreed with every number of its own.' }),
  verification: Verification,
});
export type ExperimentCreated = Static<typeof ExperimentCreated>;

export const Experiment = Type.Object({
  id: Type.String(),
  url: Type.String(),
  title: Type.Union([Type.String(), Type.Null()]),
  scenario: Scenario,
  result: Type.Union([Result, Type.Null()], { description: "The result the service computed; null until it has (or when it could not)." }),
  resultHash: Type.Union([Type.String(), Type.Null()]),
  verified: Type.Boolean(),
  verification: Verification,
  verificationError: Type.Union([Type.String(), Type.Null()]),
  claimedResult: Type.Union([Result, Type.Null()], {
    description: "The result the client submitted, while the service has not checked it or where it differs from the service's; null otherwise.",
  }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type Experiment = Static<typeof Experiment>;
