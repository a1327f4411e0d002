/**
 * The import graph between the folders of lib/ (and components/), type-only imports included,
 * and whether it has a loop. `npx tsx build/folderGraph.ts` prints it, bottom first;
 * tests/unit/build/folderOrder.test.ts checks it has none. The lint rule (build/eslint-layers.js)
 * keeps it so: this is the picture of what the rule allows today.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Folder → the folders it imports from (never itself). */
export type FolderGraph = Map<string, Set<string>>;

const SOURCE = /\.[cm]?[jt]sx?$/;
/** `from '…'`, `import '…'`, `import('…')`: every import form, type-only ones included. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*(?:\(\s*)?)['"]([^'"\n]+)['"]/g;
const ROOT_ALIAS = /^(?:@|~|@@|~~)\//;

function* sourceFiles(folder: string): Generator<string> {
  for (const name of readdirSync(folder)) {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) yield* sourceFiles(full);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) yield full;
  }
}

function unitOf(root: string, file: string): string | undefined {
  const relative = path.relative(root, file).split(path.sep);
  if (relative[0] === 'components') return 'components';
  if (relative[0] !== 'lib' || relative.length < 2) return undefined;
  return relative[1].replace(SOURCE, '');
}

export function folderGraph(root: string): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const top of ['lib', 'components']) {
    for (const file of sourceFiles(path.join(root, top))) {
      const from = unitOf(root, file)!;
      const edges = graph.get(from) ?? graph.set(from, new Set()).get(from)!;
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
        const target = ROOT_ALIAS.test(specifier)
          ? path.join(root, specifier.replace(ROOT_ALIAS, ''))
          : specifier.startsWith('.')
            ? path.resolve(path.dirname(file), specifier)
            : undefined;
        const to = target === undefined ? undefined : unitOf(root, target);
        if (to !== undefined && to !== from) edges.add(to);
      }
    }
  }
  return graph;
}

/** A loop of the graph as a path (`a → b → a`), or undefined when there is none. */
export function findLoop(graph: FolderGraph): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...trail.slice(trail.indexOf(node)), node];
    state.set(node, 'open');
    trail.push(node);
    for (const next of graph.get(node) ?? []) {
      const loop = visit(next);
      if (loop) return loop;
    }
    trail.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of [...graph.keys()].sort()) {
    const loop = visit(node);
    if (loop) return loop;
  }
  return undefined;
}

/** The folders bottom first: each after everything it imports. Undefined when there is a loop. */
export function bottomFirst(graph: FolderGraph): string[] | undefined {
  if (findLoop(graph)) return undefined;
  const order: string[] = [];
  const placed = new Set<string>();
  const place = (node: string) => {
    if (placed.has(node)) return;
    placed.add(node);
    for (const next of [...(graph.get(node) ?? [])].sort()) place(next);
    order.push(node);
  };
  for (const node of [...graph.keys()].sort()) place(node);
  return order;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const graph = folderGraph(process.cwd());
  const loop = findLoop(graph);
  const say = (line: string) => process.stdout.write(`${line}\n`);
  if (loop) {
    say(`A loop: ${loop.join(' → ')}`);
    process.exitCode = 1;
  } else {
    for (const folder of bottomFirst(graph)!) {
      const targets = [...(graph.get(folder) ?? [])].sort().join(', ');
      say(`${folder.padEnd(12)} → ${targets || '(nothing)'}`);
    }
    say('No loop between the folders of lib/ and components/.');
  }
}
