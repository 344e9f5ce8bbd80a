import { describe, expect, it } from 'vitest';
import {
  isTerminalRunStatus,
  isTerminalSessionStatus,
  RUN_STATUSES,
  SESSION_STATUSES,
  sqlList,
  TERMINAL_RUN_STATUSES,
  TERMINAL_SESSION_STATUSES,
} from './statuses';

describe('the run vocabulary', () => {
  it('takes its statuses from the schema, and its finished sets are among them', () => {
    expect(RUN_STATUSES).toEqual(['queued', 'running', 'waiting', 'paused', 'succeeded', 'failed', 'cancelled']);
    expect(SESSION_STATUSES).toEqual(['idle', 'running', 'waiting', 'succeeded', 'failed', 'cancelled']);
    for (const s of TERMINAL_RUN_STATUSES) expect(RUN_STATUSES).toContain(s);
    for (const s of TERMINAL_SESSION_STATUSES) expect(SESSION_STATUSES).toContain(s);
  });

  it('says which statuses are finished', () => {
    expect(RUN_STATUSES.filter(isTerminalRunStatus)).toEqual(['succeeded', 'failed', 'cancelled']);
    expect(SESSION_STATUSES.filter(isTerminalSessionStatus)).toEqual(['succeeded', 'failed', 'cancelled']);
    expect(isTerminalRunStatus('paused')).toBe(false);
  });

  it('writes a status list for SQL and refuses anything that is not a status word', () => {
    expect(sqlList(TERMINAL_RUN_STATUSES)).toBe(`('succeeded', 'failed', 'cancelled')`);
    expect(() => sqlList(["x') OR ('1"])).toThrow('not a status');
  });
});
