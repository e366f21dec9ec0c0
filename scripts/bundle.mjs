// npm run bundle: dist/cli/main.js (and the PDF worker) into one CommonJS
// file each, dist/acct.cjs and dist/pdf-worker.cjs, which bin/acct runs
// through a V8 code cache. Native and file-reading packages stay outside.
//
// A package the code loads on first use with createRequire(import.meta.url)
// ('name') (the table package, string-width) is bundled too, still loaded on
// first use: esbuild's wrapper runs it when first required. Left outside, it
// came through Node's loader at every table, some 40 files read, resolved and
// compiled without the cache: about a tenth of a short report's start-up.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const external = ['better-sqlite3', 'pdfmake', 'nodemailer'];
const deferred = /createRequire\(import\.meta\.url\)\((['"])([a-z@][\w@/.-]*)\1\)/g;

/** Turns a deferred createRequire of a bundled package into require(), which esbuild bundles and still runs on first call. */
const bundleDeferred = {
  name: 'bundle-deferred-requires',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      if (!text.includes('createRequire(import.meta.url)(')) return undefined;
      const contents = text.replace(deferred, (whole, quote, name) =>
        external.some((e) => name === e || name.startsWith(`${e}/`)) ? whole : `require(${quote}${name}${quote})`,
      );
      return { contents, loader: 'js' };
    });
  },
};

await build({
  entryPoints: { acct: path.join(root, 'dist/cli/main.js'), 'pdf-worker': path.join(root, 'dist/pdf/worker.js') },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outdir: path.join(root, 'dist'),
  outExtension: { '.js': '.cjs' },
  external,
  logLevel: 'warning',
  define: { 'import.meta.url': '__acctUrl' },
  banner: { js: "const __acctUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [bundleDeferred],
});
