import { describe, expect, it } from 'vitest';
import { issuesAtPaths, jsonSyntaxIssues, locatePath, yamlSyntaxIssues } from './code-issues';

describe('yamlSyntaxIssues', () => {
  it('has no issue for valid YAML or JSON', () => {
    expect(yamlSyntaxIssues('version: 1\nrules: []\n')).toEqual([]);
    expect(yamlSyntaxIssues('{\n  "version": 1\n}')).toEqual([]);
  });

  it('reports a JSON syntax error at its line and column, without the position in the message', () => {
    const issues = yamlSyntaxIssues('{\n  "version": 1,\n  "default": "deny"\n  "rules": []\n}');
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0]).toMatchObject({ line: 4, column: expect.any(Number) });
    expect(issues[0]?.message).not.toMatch(/line \d+, column \d+/);
  });

  it('reports a duplicate key where the second one is', () => {
    expect(yamlSyntaxIssues('a: 1\nb: 2\na: 3\n')[0]).toMatchObject({ line: 3, column: 1 });
  });
});

describe('jsonSyntaxIssues', () => {
  it('accepts valid JSON and an empty field', () => {
    expect(jsonSyntaxIssues('[{ "name": "x" }]')).toEqual([]);
    expect(jsonSyntaxIssues('  \n')).toEqual([]);
  });

  it('locates a missing value, a missing comma and trailing text', () => {
    expect(jsonSyntaxIssues('{\n  "a": 1,\n  "b": }')[0]).toMatchObject({ line: 3, column: 8 });
    expect(jsonSyntaxIssues('[\n  { "a": 1 }\n  { "b": 2 }\n]')[0]).toMatchObject({ line: 3 });
    expect(jsonSyntaxIssues('{}\n  x')[0]).toEqual({ line: 2, column: 3, message: 'Unexpected non-whitespace character after JSON' });
  });

  it('keeps the message short when the browser quotes the text', () => {
    expect(jsonSyntaxIssues('{\n  "driver": "bwrap",\n  "memoryMb": \n}')).toEqual([{ line: 4, column: 1, message: "Unexpected token '}'" }]);
  });

  it('locates an unterminated document at its end', () => {
    const [issue] = jsonSyntaxIssues('[\n  { "a": 1 }');
    expect(issue).toMatchObject({ line: 2 });
    expect(issue?.message).not.toContain('is not valid JSON');
  });
});

describe('locatePath and issuesAtPaths', () => {
  const text = '[\n  {\n    "name": "triage",\n    "goalTemplate": "Do {{thing}}"\n  }\n]';

  it('finds a value, and the nearest ancestor of a missing one', () => {
    expect(locatePath(text, [0, 'goalTemplate'])).toEqual({ line: 4, column: 21 });
    expect(locatePath(text, [0, 'args', 0])).toEqual({ line: 2, column: 3 });
    expect(locatePath('{ oops', [0])).toBeUndefined();
  });

  it('places server issues, whose paths are strings, at their line', () => {
    expect(issuesAtPaths(text, [{ path: ['0', 'goalTemplate'], message: 'template uses {{thing}}' }])).toEqual([
      { path: '0.goalTemplate', line: 4, column: 21, message: 'template uses {{thing}}' },
    ]);
  });
});
