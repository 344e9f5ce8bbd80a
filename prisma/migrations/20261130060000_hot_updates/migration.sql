-- Run and Session rows are updated on every flush (event counters, spend, lease, projection), and
-- none of those columns is indexed. With room left on each page Postgres updates them in place
-- (a heap-only tuple: no new entry in any of the tables' indexes); on a full page every update
-- writes a new tuple elsewhere plus one entry in each index (Run has ten).
ALTER TABLE "Run" SET (fillfactor = 70);
ALTER TABLE "Session" SET (fillfactor = 70);
ALTER TABLE "BudgetLedger" SET (fillfactor = 70);
