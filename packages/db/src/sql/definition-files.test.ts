import { describe, expect, it } from 'vitest';
import { definitionFiles, parseDefinitions, readDefinitions, splitStatements } from './definition-files';

describe('the definition files', () => {
  it('are the ones next to the code relying on them', () => {
    expect(definitionFiles()).toEqual([
      'audit/append-only.triggers.sql',
      'audit/audit-chain.functions.sql',
      'runs/ledger-check.functions.sql',
      'webhooks/webhook-approval.triggers.sql',
      'webhooks/webhook-graph-budget.triggers.sql',
      'webhooks/webhook-outbox.functions.sql',
      'webhooks/webhook-run.triggers.sql',
    ]);
  });

  it('define these functions, each once', () => {
    const functions = readDefinitions().filter((d) => d.kind === 'function');
    expect(functions.map((f) => `${f.file}: ${f.name}`)).toEqual([
      'audit/append-only.triggers.sql: looplane_refuse_row_change',
      'audit/audit-chain.functions.sql: looplane_audit_append_chained',
      'runs/ledger-check.functions.sql: looplane_ledger_over_limit',
      'webhooks/webhook-approval.triggers.sql: looplane_webhook_approval_data',
      'webhooks/webhook-approval.triggers.sql: looplane_webhook_approval_requested',
      'webhooks/webhook-approval.triggers.sql: looplane_webhook_approval_decided',
      'webhooks/webhook-graph-budget.triggers.sql: looplane_webhook_edge_data',
      'webhooks/webhook-graph-budget.triggers.sql: looplane_webhook_budget_exceeded',
      'webhooks/webhook-graph-budget.triggers.sql: looplane_webhook_edge_calls',
      'webhooks/webhook-outbox.functions.sql: looplane_webhook_iso',
      'webhooks/webhook-outbox.functions.sql: looplane_webhook_targets',
      'webhooks/webhook-outbox.functions.sql: looplane_webhook_emit',
      'webhooks/webhook-run.triggers.sql: looplane_webhook_run',
    ]);
    expect(new Set(functions.map((f) => f.name)).size).toBe(functions.length);
  });

  it('define these triggers, each on its table', () => {
    const triggers = readDefinitions().flatMap((d) => (d.kind === 'trigger' ? [`${d.table}.${d.name}`] : []));
    expect(triggers).toEqual([
      'AuditLog.AuditLog_immutable',
      'Event.Event_immutable',
      'PolicyVersion.PolicyVersion_immutable',
      'Approval.Approval_webhooks_requested',
      'Approval.Approval_webhooks_decided',
      'Event.Event_webhooks_budget',
      'SwarmCrossing.SwarmCrossing_webhooks_calls',
      'Run.Run_webhooks',
    ]);
  });
});

describe('parseDefinitions', () => {
  it('keeps semicolons, quotes and dollars inside bodies, strings and comments out of the split', () => {
    const text = `-- a comment; with a semicolon and a $$ and a 'quote
CREATE OR REPLACE FUNCTION "Mixed_Case"(a text) RETURNS text LANGUAGE plpgsql AS $body$
BEGIN
  RETURN a || ';' || $$nested; dollars$$; /* not a comment end; */
END $body$;
/* block; comment */
create or replace function plain_name() returns text language sql as $$ SELECT 'it''s; fine' $$;
CREATE OR REPLACE TRIGGER "t" AFTER UPDATE OF "on", b ON "Some Table" FOR EACH ROW
  WHEN (NEW.b <> ';') EXECUTE FUNCTION "Mixed_Case"();
`;
    const definitions = parseDefinitions(text, 'x.sql');
    expect(definitions.map((d) => [d.kind, d.name, d.kind === 'trigger' ? d.table : d.body])).toEqual([
      ['function', 'Mixed_Case', "\nBEGIN\n  RETURN a || ';' || $$nested; dollars$$; /* not a comment end; */\nEND "],
      ['function', 'plain_name', " SELECT 'it''s; fine' "],
      ['trigger', 't', 'Some Table'],
    ]);
  });

  it('refuses a plain CREATE FUNCTION: a migration could not apply the file again', () => {
    expect(() => parseDefinitions('CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;', 'x.sql')).toThrow(/only CREATE OR REPLACE/);
  });

  it('refuses other statements and a body that is not dollar-quoted', () => {
    expect(() => parseDefinitions('DROP TRIGGER t ON x;', 'x.sql')).toThrow(/only CREATE OR REPLACE/);
    expect(() => parseDefinitions(`CREATE OR REPLACE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1';`, 'x.sql')).toThrow(/one dollar-quoted body/);
  });

  it('refuses a last statement without its semicolon', () => {
    expect(() => splitStatements('CREATE OR REPLACE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$')).toThrow(/closing semicolon/);
  });
});
