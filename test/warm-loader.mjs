// Run before the suite (npm pretest): load every module of src/ and the test
// helpers once through tsx, so that tsx's disk cache of transformed files
// holds them before tap starts its test processes in parallel.
//
// Why: tsx keys that cache by each file's path and writes it asynchronously;
// a test process that ends before its writes land leaves nothing behind, so
// on the first run of a fresh clone nearly every process transformed every
// module again. On this 2-core machine tap took 547 s on a fresh clone's
// first run and 401 s on its second (with .tap/ removed); on a copy at a new
// path, warmed by this script first, 385 s. It takes a few seconds.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

function modules(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return modules(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

const files = [...modules(path.join(root, 'src')), ...modules(path.join(root, 'test'))];
for (const file of files) await import(pathToFileURL(file).href);
// tsx writes its cache entries with fs.promises.writeFile and does not wait: give them time to land.
await new Promise((resolve) => setTimeout(resolve, 1000));
console.log(`tsx cache warmed: ${files.length} modules`);
