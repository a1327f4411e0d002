import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noCodeGeneration, objectWithoutFastpass } from '../../../build/noCodeGeneration';

const ZOD_SCHEMAS = join(import.meta.dirname, '../../../node_modules/zod/v4/core/schemas.js');

type Transform = (code: string, id: string) => { code: string } | null;

describe("zod's compiled object fast path, switched off where zod decides it", () => {
  const source = readFileSync(ZOD_SCHEMAS, 'utf8');

  it('is decided in one line of the zod the extension bundles, which becomes a constant false', () => {
    const slim = objectWithoutFastpass(source);
    expect(source).toContain('const fastEnabled = jit && allowsEval.value;');
    expect(slim).not.toContain('jit && allowsEval.value');
    expect(slim).toContain('const fastEnabled = false;');
    // Only that line changed.
    expect(slim.split('\n').length).toBe(source.split('\n').length);
  });

  it('is applied by the plugin to zod/v4/core/schemas.js', () => {
    const transform = noCodeGeneration().transform as unknown as Transform;
    expect(
      transform.call(
        {
          error: (m: string) => {
            throw new Error(m);
          },
        },
        source,
        ZOD_SCHEMAS,
      )?.code,
    ).toContain('const fastEnabled = false;');
  });

  it('fails the build when zod decides it some other way', () => {
    expect(() => objectWithoutFastpass('const fastEnabled = jit;')).toThrow(/no longer decided/);
  });
});
