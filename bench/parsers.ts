/**
 * The worst case of every parser of service input: each hostile 1 MB input of
 * tests/fixtures/hostile/parsers.ts, timed in Node (no browser, no sandbox needed).
 */
import { HOSTILE_CASES } from '../tests/fixtures/hostile/parsers';
import { VALIDATION_CASES } from '../tests/fixtures/hostile/validation';
import { spread, type Spread } from './stats';

export interface ParserFigure {
  parser: string;
  shape: string;
  bytes: number;
  time: Spread;
  /** Megabytes (10^6 characters) per second at the median. */
  mbPerSecond: number;
}

export async function benchParsers(runs = 3): Promise<ParserFigure[]> {
  const figures: ParserFigure[] = [];
  for (const hostile of [...HOSTILE_CASES, ...VALIDATION_CASES]) {
    const input = hostile.input();
    const samples: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const started = performance.now();
      await hostile.run(input);
      samples.push(performance.now() - started);
    }
    const time = spread(samples);
    figures.push({
      parser: hostile.parser,
      shape: hostile.shape,
      bytes: input.length,
      time,
      mbPerSecond: input.length / 1e6 / (Math.max(time.median, 0.01) / 1000),
    });
  }
  return figures;
}

/** The slowest case of each parser first, then every case. */
export function printParsers(figures: ParserFigure[]): void {
  const worst = new Map<string, ParserFigure>();
  for (const figure of figures) {
    const current = worst.get(figure.parser);
    if (!current || figure.time.median > current.time.median) worst.set(figure.parser, figure);
  }
  console.log('\nParsers of service input: worst case per parser on about 1 MB of hostile input (median)');
  console.table(
    [...worst.values()].map((f) => ({
      parser: f.parser,
      'worst input': f.shape,
      ms: Number(f.time.median.toFixed(1)),
      // A header over its length cap is refused unread: too fast to time meaningfully.
      'MB/s': f.time.median < 0.05 ? '> 1000 (refused by size)' : Number(f.mbPerSecond.toFixed(1)),
    })),
  );
}
