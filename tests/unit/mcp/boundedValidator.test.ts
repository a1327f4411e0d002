import { describe, expect, it } from 'vitest';
import { BoundedJsonSchemaValidator } from '@/lib/mcp/boundedValidator';
import { cpuNow, linearBound } from '../../fixtures/linearTime';

const provider = new BoundedJsonSchemaValidator();

function timed<T>(work: () => T): { result: T; ms: number } {
  const started = cpuNow();
  const result = work();
  return { result, ms: cpuNow() - started };
}

describe('BoundedJsonSchemaValidator (tool output schemas from the MCP server)', () => {
  it('checks an ordinary output schema, $defs included', () => {
    const check = provider.getValidator({
      type: 'object',
      required: ['symbol'],
      properties: { symbol: { $ref: '#/$defs/Ticker' } },
      $defs: { Ticker: { type: 'string', pattern: '^[A-Z]{1,5}$' } },
    });
    expect(check({ symbol: 'NVDA' }).valid).toBe(true);
    const bad = check({ symbol: 'nvda' });
    expect(bad.valid).toBe(false);
    expect(bad.errorMessage).toContain('/symbol');
  });

  it('a backtracking pattern on a 2,000-character result no longer freezes the worker', () => {
    const check = provider.getValidator({
      type: 'object',
      properties: { note: { type: 'string', pattern: '^(a+)+$' } },
    });
    const note = `${'a'.repeat(2_000)}!`;
    const { result, ms } = timed(() => check({ note }));
    expect(result.valid).toBe(true);
    // A few linear passes at most; the unguarded pattern never ends on this note.
    expect(ms).toBeLessThan(linearBound(note, 1_000));
  });

  it('exponential $ref fan-out is skipped rather than run', () => {
    const $defs: Record<string, Record<string, unknown>> = { L40: { type: 'string' } };
    for (let i = 0; i < 40; i += 1)
      $defs[`L${i}`] = { anyOf: [{ $ref: `#/$defs/L${i + 1}` }, { $ref: `#/$defs/L${i + 1}` }] };
    const check = provider.getValidator({
      type: 'object',
      properties: { note: { $ref: '#/$defs/L0' } },
      $defs,
    });
    const { result, ms } = timed(() => check({ note: 'x' }));
    expect(result.valid).toBe(true);
    // 2^40 branches if run; skipped, it costs less than a thousand passes over a megabyte.
    expect(ms).toBeLessThan(linearBound('', 1_000));
  });
});
