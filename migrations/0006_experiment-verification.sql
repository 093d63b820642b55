-- Up Migration
-- A saved experiment's numbers are the service's own. `result` and `result_hash` are what the
-- service computed (null until it has); a result the client submitted is kept beside them, as
-- `claimed_result`, until the service has checked it, and afterwards when it differs. `verified`
-- stays what the API answers: true only when the service ran the scenario itself and a submitted
-- result, if any, agreed with every number.
--
-- verification:
--   verified    the service computed the result (and every number of the claim, if any, agreed);
--   pending     a run on the queue computes it (the scenario is too long for a synchronous run);
--   differs     the service's result and the claim differ (verification_error names the first place);
--   failed      the service could not run it (verification_error says why: its time or memory limit);
--   unverified  stored before the service checked every experiment: the result is the client's claim.
ALTER TABLE experiments
  ADD COLUMN claimed_result     jsonb,
  ADD COLUMN verification       text NOT NULL DEFAULT 'verified'
                                  CHECK (verification IN ('verified', 'pending', 'differs', 'failed', 'unverified')),
  ADD COLUMN verification_error text;

UPDATE experiments SET verification = 'unverified', claimed_result = result, result = NULL, result_hash = NULL
WHERE NOT verified;
