/**
 * The files of the demo repository `looplane start` creates (as one commit of a bare repository):
 * a tiny Node library whose test fails because of one missing regex flag, which the seeded
 * `demo-repo` agent finds, fixes, tests and pushes as `fix/slugify`. The agent's script
 * (seed-repo-demo.ts) edits `src/slugify.js` by exact text: {@link DEMO_REPOSITORY_BUG} keeps the
 * two together.
 */
export const DEMO_REPOSITORY_FILES: Readonly<Record<string, string>> = {
  'README.md': `# demo-repo

A tiny library that turns titles into URL slugs: \`slugify('Hello, World!')\` is \`hello-world\`.

\`npm test\` runs its tests with Node's own test runner (no dependencies). One of them fails:
Looplane's \`demo-repo\` agent finds the bug, fixes it and publishes the fix as the branch
\`fix/slugify\` once an approver agrees.
`,
  'AGENTS.md': `# Working on demo-repo

- Run \`npm test\` before you publish: every test must pass.
- The library has no dependencies; keep it that way.
- Publish a fix on its own branch (\`fix/<topic>\`), never on main.
`,
  'package.json': `${JSON.stringify(
    {
      name: 'demo-repo',
      version: '1.0.0',
      private: true,
      description: 'Turns titles into URL slugs',
      main: 'src/slugify.js',
      scripts: { test: 'node --test' },
      license: 'Apache-2.0',
    },
    null,
    2,
  )}\n`,
  // npm keeps its cache and a log of every command under HOME, which is the workspace in the
  // sandbox: without this, each \`npm test\` would leave files that a published branch would carry.
  '.npmrc': 'cache=/tmp/.npm\nlogs-max=0\nupdate-notifier=false\nfund=false\naudit=false\n',
  '.gitignore': 'node_modules/\n',
  'src/slugify.js': `'use strict';

/**
 * A URL slug of \`title\`: lower case, every run of characters other than letters and digits
 * turned into one hyphen, none at either end.
 */
function slugify(title) {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/, '-')
    .replace(/^-+|-+$/g, '');
}

module.exports = { slugify };
`,
  'test/slugify.test.js': `'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { slugify } = require('../src/slugify');

test('lower-cases a single word', () => {
  assert.equal(slugify('Looplane'), 'looplane');
});

test('joins words with single hyphens', () => {
  assert.equal(slugify('Hello, World!'), 'hello-world');
});

test('collapses every run of spaces and punctuation', () => {
  assert.equal(slugify('  Agents -- at work  '), 'agents-at-work');
});
`,
};

/** What the agent's edit replaces in src/slugify.js, and with what (the missing `g` flag). */
export const DEMO_REPOSITORY_BUG = { path: 'src/slugify.js', broken: ".replace(/[^a-z0-9]+/, '-')", fixed: ".replace(/[^a-z0-9]+/g, '-')" };
