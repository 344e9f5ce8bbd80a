-- What the database holds, statement for statement: packages/db/src/sql/function-bodies.int.test.ts
-- fails when a migrated database differs from these files. Migrations build the database, so a
-- change here ships with a new migration in prisma/migrations that applies this file's text again
-- (each statement is CREATE OR REPLACE) and drops whatever the file no longer defines.
--
-- Append-only tables: "AuditLog" (the tamper-evident hash chain), "Event" (the
-- run event log) and "PolicyVersion" (every saved policy version is kept).
-- Rows may be inserted, never changed or removed, whatever the application
-- does; a fix is a new row. BEFORE ... FOR EACH ROW so the statement fails
-- before touching anything.
--
-- Deleting a parent row whose ON DELETE CASCADE reaches one of these tables
-- (a Run's Events, a Policy's versions) is refused too: retention has to be
-- an explicit, deliberate operation (e.g. dropping the trigger in a
-- migration), not a side effect. "AuditLog" -> "Team" is ON DELETE RESTRICT
-- already.

-- Raises "<Table> rows are immutable" for the table the trigger fired on.
CREATE OR REPLACE FUNCTION "looplane_refuse_row_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are immutable', TG_TABLE_NAME
    USING HINT = 'This table is append-only: insert a new row instead.';
END;
$$;

CREATE OR REPLACE TRIGGER "AuditLog_immutable"
  BEFORE UPDATE OR DELETE ON "AuditLog"
  FOR EACH ROW EXECUTE FUNCTION "looplane_refuse_row_change"();

CREATE OR REPLACE TRIGGER "Event_immutable"
  BEFORE UPDATE OR DELETE ON "Event"
  FOR EACH ROW EXECUTE FUNCTION "looplane_refuse_row_change"();

CREATE OR REPLACE TRIGGER "PolicyVersion_immutable"
  BEFORE UPDATE OR DELETE ON "PolicyVersion"
  FOR EACH ROW EXECUTE FUNCTION "looplane_refuse_row_change"();
