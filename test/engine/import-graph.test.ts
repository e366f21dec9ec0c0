/**
 * The import graph of src/: no file imports itself through others (no cycle
 * of files), and the engine's areas (src/engine/<area>/) form layers: no two
 * areas import each other, directly or around a longer circle; the files at
 * the top of src/engine (operation.ts, schema.ts…) import no area.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { projectFile } from '../../src/paths.js';

const root = fileURLToPath(projectFile('src/'));

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sources(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Relative imports of a file, type-only ones included (they tie modules together just as much for a reader). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/g)].map((m) => m[1] as string);
  return found.map((rel) => path.resolve(path.dirname(file), rel.replace(/\.js$/, '.ts')));
}

const files = sources(root);
const graph = new Map(files.map((f) => [f, importsOf(f).filter((i) => fs.existsSync(i))]));
const name = (f: string) => path.relative(root, f);

/** Every cycle's strongly connected component of more than one node (Tarjan). */
function components(nodes: readonly string[], edges: (n: string) => readonly string[]): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges(v)) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, indexOf.get(w) as number));
    }
    if (low.get(v) === indexOf.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const n of nodes) if (!indexOf.has(n)) visit(n);
  return out;
}

t.test('no cycle of files', async (t) => {
  t.strictSame(
    components(files, (f) => graph.get(f) ?? []).map((c) => c.map(name)),
    [],
  );
});

/** The area of an engine file (ledger, sales…), or null for the engine's own top-level files and the rest of src. */
const areaOf = (f: string): string | null => {
  const parts = name(f).split(path.sep);
  return parts[0] === 'engine' && parts.length > 2 ? (parts[1] as string) : null;
};

t.test('no cycle of engine areas', async (t) => {
  const areas = [...new Set(files.map(areaOf).filter((a): a is string => a !== null))];
  const edges = new Map(areas.map((a) => [a, new Set<string>()]));
  for (const [f, imports] of graph) {
    const from = areaOf(f);
    if (from === null) continue;
    for (const i of imports) {
      const to = areaOf(i);
      if (to !== null && to !== from) edges.get(from)?.add(to);
    }
  }
  t.strictSame(
    components(areas, (a) => [...(edges.get(a) ?? [])]),
    [],
  );
});

t.test("the engine's top-level files import no area", async (t) => {
  const top = files.filter((f) => name(f).split(path.sep).length === 2 && name(f).startsWith('engine'));
  const reaching = top.flatMap((f) =>
    (graph.get(f) ?? []).filter((i) => areaOf(i) !== null && name(f) !== 'engine/registry.ts').map((i) => `${name(f)} → ${name(i)}`),
  );
  t.strictSame(reaching, []);
});
