import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Plugin } from 'vite';

/** One output chunk and what rollup rendered into it (bytes after tree-shaking, before minifying). */
export interface ChunkModules {
  fileName: string;
  modules: { id: string; renderedLength: number }[];
}

/**
 * The bundler's own account of each chunk, for `npm run bench`: set BENCH_MODULE_SIZES to a file
 * and every Vite build of the run appends its chunks there. Off (no plugin hook) otherwise.
 */
export function moduleSizes(file = process.env.BENCH_MODULE_SIZES): Plugin {
  return {
    name: 'playbook-companion:module-sizes',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (!file) return;
      const chunks: ChunkModules[] = existsSync(file)
        ? (JSON.parse(readFileSync(file, 'utf8')) as ChunkModules[])
        : [];
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks.push({
          fileName: output.fileName,
          modules: Object.entries(output.modules).map(([id, module]) => ({
            id: relative(process.cwd(), id.replace(/^\0/, '')),
            renderedLength: module.renderedLength,
          })),
        });
      }
      writeFileSync(file, JSON.stringify(chunks));
    },
  };
}

/** Groups a module id: an npm package by name, our code by its folder under lib/ (or its top folder). */
export function moduleGroup(id: string): string {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id);
  if (inPackage) return inPackage[1];
  const ours = /^(lib\/[^/]+|[^/]+)/.exec(id);
  return ours ? ours[1] : id;
}

export interface CompositionRow {
  group: string;
  renderedBytes: number;
  share: number;
}

/**
 * What a set of output files (an entrypoint and every chunk it loads, bench/bundles.ts) is made
 * of, by group, biggest first.
 */
export function composition(chunks: ChunkModules[], fileNames: readonly string[]): CompositionRow[] {
  const wanted = new Set(fileNames);
  const sizes = new Map<string, number>();
  for (const chunk of chunks.filter((c) => wanted.has(c.fileName)))
    for (const module of chunk.modules)
      sizes.set(moduleGroup(module.id), (sizes.get(moduleGroup(module.id)) ?? 0) + module.renderedLength);
  const total = [...sizes.values()].reduce((sum, size) => sum + size, 0) || 1;
  return [...sizes.entries()]
    .map(([group, renderedBytes]) => ({ group, renderedBytes, share: renderedBytes / total }))
    .sort((a, b) => b.renderedBytes - a.renderedBytes);
}
