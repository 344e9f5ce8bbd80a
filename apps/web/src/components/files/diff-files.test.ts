import { describe, expect, it } from 'vitest';
import { splitDiff } from './diff-files';

const added = `diff --git a/notes/plan.md b/notes/plan.md
new file mode 100644
index 0000000..1111111
--- /dev/null
+++ b/notes/plan.md
@@ -0,0 +1,2 @@
+- part 1: todo
+- part 2: todo
`;
const modified = `diff --git a/src/app.ts b/src/app.ts
index 1111111..2222222 100644
--- a/src/app.ts
+++ b/src/app.ts
@@ -1 +1 @@
-export const v = 1;
+export const v = 2;
`;
const deleted = `diff --git a/old.txt b/old.txt
deleted file mode 100644
index 3333333..0000000
--- a/old.txt
+++ /dev/null
@@ -1 +0,0 @@
-gone
`;
const binary = `diff --git a/assets/big.bin b/assets/big.bin
new file mode 100644
index 0000000..4444444
Binary files /dev/null and b/assets/big.bin differ
`;

describe('splitDiff', () => {
  it('gives one part per file, each with its own text and paths', () => {
    const parts = splitDiff(added + modified + deleted);
    expect(parts.map((p) => [p.path, p.oldPath, p.newPath, p.hasHunks])).toEqual([
      ['notes/plan.md', null, 'notes/plan.md', true],
      ['src/app.ts', 'src/app.ts', 'src/app.ts', true],
      ['old.txt', 'old.txt', null, true],
    ]);
    expect(parts.map((p) => p.text)).toEqual([added, modified, deleted]);
  });

  it('names a binary file from its header, with no hunks', () => {
    expect(splitDiff(modified + binary)[1]).toEqual({ path: 'assets/big.bin', oldPath: null, newPath: 'assets/big.bin', text: binary, hasHunks: false });
  });

  it('is empty for an empty diff, and ends a cut last part with a newline', () => {
    expect(splitDiff('')).toEqual([]);
    expect(splitDiff(modified.trimEnd())[0]!.text).toBe(modified);
  });
});
