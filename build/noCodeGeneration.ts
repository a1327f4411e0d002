import type { Plugin } from 'vite';

/**
 * zod compiles fast validators with `new Function` when it may. The extension runs zod jitless
 * (lib/zodConfig.ts), so that code is dead, but it still ships, and a bundle that contains
 * `new Function` is one a reviewer (and Firefox's linter) must trust blindly. This swaps zod's
 * `Function` for one that throws, so the shipped bundles hold no code generation at all.
 * COMPAT(zod-4): if zod stops spelling it `const F = Function;` the build fails here, on purpose.
 */
const ZOD_CORE = /[\\/]zod[\\/]v4[\\/]core[\\/](util|doc|compile)\.js$/;
const SPELLING = 'const F = Function;';
const REPLACEMENT =
  'const F = function noCodeGeneration() { throw new EvalError("code generation is disabled in this extension"); };';

export function noCodeGeneration(): Plugin {
  return {
    name: 'playbook-companion:no-code-generation',
    enforce: 'pre',
    transform(code, id) {
      if (!ZOD_CORE.test(id)) return null;
      const mentionsFunction = /\bnew F\(/.test(code);
      if (!mentionsFunction) return null;
      if (!code.includes(SPELLING)) {
        this.error(
          `zod's code generation in ${id} is no longer spelled "${SPELLING}": update build/noCodeGeneration.ts`,
        );
      }
      return { code: code.split(SPELLING).join(REPLACEMENT), map: null };
    },
  };
}
