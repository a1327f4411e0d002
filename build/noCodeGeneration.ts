import type { Plugin } from 'vite';

/**
 * zod compiles fast validators with `new Function` when it may. The extension runs zod jitless
 * (lib/zodConfig.ts), so that code is dead, but it still ships, and a bundle that contains
 * `new Function` is one a reviewer (and Firefox's linter) must trust blindly. This swaps zod's
 * `Function` for one that throws, so the shipped bundles hold no code generation at all.
 * COMPAT(zod-4): if zod stops spelling it `const F = Function;` the build fails here, on purpose.
 *
 * With that `Function`, zod's `allowsEval` is always false, so its object schemas never take the
 * compiled fast path; but the bundler cannot know it and keeps the path's code generator (and
 * zod's `Doc` code writer): ≈0.8 KB gzip in the worker. objectWithoutFastpass says so to the
 * bundler, in the one line that decides it.
 * COMPAT(zod-4): if that line changes, the build fails here, on purpose.
 */
const ZOD_CORE = /[\\/]zod[\\/]v4[\\/]core[\\/](util|doc|compile)\.js$/;
const ZOD_SCHEMAS = /[\\/]zod[\\/]v4[\\/]core[\\/]schemas\.js$/;
const FAST_PATH = 'const fastEnabled = jit && allowsEval.value;';
const NO_FAST_PATH =
  'const fastEnabled = false; // build/noCodeGeneration.ts: allowsEval is always false here';

/** zod's core/schemas.js with the object schema's compiled fast path switched off where it is decided. */
export function objectWithoutFastpass(code: string): string {
  if (code.split(FAST_PATH).length !== 2)
    throw new Error(`zod's object fast path is no longer decided by "${FAST_PATH}"`);
  return code.replace(FAST_PATH, NO_FAST_PATH);
}
const SPELLING = 'const F = Function;';
const REPLACEMENT =
  'const F = function noCodeGeneration() { throw new EvalError("code generation is disabled in this extension"); };';

export function noCodeGeneration(): Plugin {
  return {
    name: 'playbook-companion:no-code-generation',
    enforce: 'pre',
    transform(code, id) {
      if (ZOD_SCHEMAS.test(id)) {
        try {
          return { code: objectWithoutFastpass(code), map: null };
        } catch (error) {
          this.error(`${(error as Error).message} (${id}): update build/noCodeGeneration.ts`);
        }
      }
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
