/**
 * Where the files shipped beside the code are: package.json, migrations/,
 * fixtures/. The code runs from src/ (tsx), dist/ (tsc and the bundled
 * CLI) or test-dist/ (the bundled test suite), at different depths, so the
 * project root is found, not assumed: the nearest folder upwards holding
 * both package.json and migrations/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'migrations'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no project root (package.json beside migrations/) above ${from}`);
  }
}

export const projectRoot = pathToFileURL(findRoot(path.dirname(fileURLToPath(import.meta.url))) + path.sep);

export const projectFile = (relative: string): URL => new URL(relative, projectRoot);
