-- What the database holds, statement for statement: packages/db/src/sql/function-bodies.int.test.ts
-- fails when a migrated database differs from this file. A change here ships with a new migration
-- in prisma/migrations that applies this file's text again.
--
-- A reservation the worker granted on room it knew of is checked by the flush that writes it
-- (append-sql.ts), on the run ledger's updated row under its lock. Over a limit, the flush calls
-- this: the statement fails with SQLSTATE LL001 and writes nothing (its events, its ledger change,
-- its audit rows). The worker then writes what it had buffered before the reservation and
-- continues the session from its log, reserving the checked way (budget-ledger.ts).
CREATE OR REPLACE FUNCTION "looplane_ledger_over_limit"(run text) RETURNS int LANGUAGE plpgsql VOLATILE AS
$$
BEGIN
  RAISE EXCEPTION 'the run ledger of % has no room for a reservation granted before its check', run USING ERRCODE = 'LL001';
END
$$;
