/**
 * Where the files shipped beside the code are: package.json, migrations/,
 * fixtures/. This module compiles to dist/paths.js, and the bundled CLI is
 * dist/acct.mjs, so in both the project root is one level up.
 */
export const projectRoot = new URL('../', import.meta.url);

export const projectFile = (relative: string): URL => new URL(relative, projectRoot);
