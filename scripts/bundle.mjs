// npm run bundle: dist/cli/main.js (and the PDF worker) into one CommonJS
// file each, dist/acct.cjs and dist/pdf-worker.cjs, which bin/acct runs
// through a V8 code cache. Native and file-reading packages stay outside, and
// so does stripe: large, and loaded only when billing calls the provider.
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
const external = ['better-sqlite3', 'pdfmake', 'nodemailer', 'stripe'];
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

/**
 * The output with every non-ASCII character escaped (\uXXXX), so that the
 * bundle is ASCII. esbuild escapes strings and templates but leaves regular
 * expression literals and comments as they are (£ in an amount's pattern);
 * a bundle with one such character reads into a two-byte string, 10 ms at
 * every start against 0.5 ms. An escape means the same in a regular
 * expression, and nothing in a comment; a line that may be a template
 * (where String.raw would see the escape) is refused.
 */
function ascii(text, file) {
  return text
    .split('\n')
    .map((line, i) => {
      if (!/[^\x00-\x7f]/.test(line)) return line;
      const first = line.search(/[^\x00-\x7f]/);
      const comment = /^\s*(\/\/|\/?\*)/.test(line) || line.slice(0, first).includes('//');
      if (/[\ud800-\udfff]/.test(line) || (!comment && line.slice(0, first).includes('`'))) {
        throw new Error(`${file}:${i + 1}: a non-ASCII character that may be in a template or outside the BMP: escape it in the source`);
      }
      return line.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    })
    .join('\n');
}

const result = await build({
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
  write: false,
});
for (const out of result.outputFiles) fs.writeFileSync(out.path, ascii(out.text, path.relative(root, out.path)));
