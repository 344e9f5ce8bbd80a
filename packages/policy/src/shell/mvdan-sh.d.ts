// mvdan-sh ships no types. This declares only what syntax-tree.ts touches; the rest of the tree is
// read through the plain copy that syntax-tree.ts makes.
declare module 'mvdan-sh' {
  interface GoParser {
    Parse(source: string, name: string): unknown;
  }
  const sh: {
    syntax: {
      NewParser(...options: unknown[]): GoParser;
    };
  };
  export default sh;
}
