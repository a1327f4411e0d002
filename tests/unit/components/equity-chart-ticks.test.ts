import { describe, expect, it } from 'vitest';
import { spacedDateTicks } from '@/components/EquityChart';

/**
 * The dates axis draws a label only where it fits: in Arabic, "يناير 2024" ran into the last
 * label "ديسمبر 2024" (both drawn, touching); the first and last dates are always drawn.
 */
const at = (x: number, label: string, anchor: 'start' | 'middle' | 'end') => ({ x, label, anchor });

describe('spacedDateTicks', () => {
  it('drops a middle date whose label would run into the last one', () => {
    const ticks = [
      at(40, 'يناير 2022', 'start'),
      at(131, 'يناير 2023', 'middle'),
      at(221, 'يناير 2024', 'middle'),
      at(312, 'ديسمبر 2024', 'end'),
    ];
    // Longer month names at the same places: only the first and last fit without touching.
    expect(spacedDateTicks(ticks).map((tick) => tick.label)).toEqual(['يناير 2022', 'ديسمبر 2024']);
  });

  it('keeps every date that fits, and always the first and the last', () => {
    const ticks = [
      at(40, 'Jan 3', 'start'),
      at(131, 'May 2', 'middle'),
      at(221, 'Sep 1', 'middle'),
      at(312, 'Dec 31', 'end'),
    ];
    expect(spacedDateTicks(ticks)).toEqual(ticks);
    const crowded = [
      at(40, 'A long first label', 'start'),
      at(60, 'x', 'middle'),
      at(80, 'Another long one', 'end'),
    ];
    expect(spacedDateTicks(crowded).map((tick) => tick.label)).toEqual([
      'A long first label',
      'Another long one',
    ]);
  });
});
