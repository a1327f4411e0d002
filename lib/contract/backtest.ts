/**
 * The contract's Backtest (CONTRACT.md section 2) as the extension accepts it. Everything in a
 * backtest is service output: strings are bounded, numbers finite, the series at most
 * MAX_EQUITY_POINTS points with ascending dates, and the whole answer under MAX_BACKTEST_BYTES.
 */
import { z } from 'zod';
import type { FieldProblem } from './fieldProblems';

export const MAX_EQUITY_POINTS = 2000;
/** 2,000 points of `{date, value, benchmark}` are about 110 KB; anything far above is not a backtest. */
export const MAX_BACKTEST_BYTES = 512 * 1024;
export const BACKTEST_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type BacktestStatus = (typeof BACKTEST_STATUSES)[number];

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const finite = z.number().finite();
/** Growth of 1.0: positive, and not beyond what any real series reaches (×10,000). */
const growth = z.number().finite().positive().max(10_000);

export const equityPointSchema = z.object({ date: isoDate, value: growth, benchmark: growth });
export type EquityPoint = z.infer<typeof equityPointSchema>;

export const equitySeriesSchema = z
  .array(equityPointSchema)
  .min(1)
  .max(MAX_EQUITY_POINTS)
  .superRefine((points, ctx) => {
    // One linear pass: dates strictly ascending.
    for (let i = 1; i < points.length; i++)
      if (points[i].date <= points[i - 1].date) {
        // Named by code (FieldProblem; lib/i18n/problems.ts words it): no translations here.
        ctx.addIssue({
          code: 'custom',
          message: 'dates are not ascending',
          params: { problem: 'dates-not-ascending' satisfies FieldProblem },
          path: [i, 'date'],
        });
        return;
      }
  });

export const backtestMetricsSchema = z.object({
  total_return: finite,
  benchmark_return: finite,
  cagr: finite,
  max_drawdown: finite.max(0),
  sharpe: finite,
  volatility: finite.min(0),
});
export type BacktestMetrics = z.infer<typeof backtestMetricsSchema>;

export const backtestSchema = z.object({
  id: z.string().min(1).max(200),
  playbook_id: z.string().min(1).max(200),
  // A status this build does not know (a newer service's "cancelled") is kept and shown as sent,
  // rather than making the whole list unreadable; only 'completed' has a result to read.
  status: z.enum(BACKTEST_STATUSES).or(z.string().min(1).max(40)),
  start: isoDate,
  end: isoDate,
  benchmark: z.string().min(1).max(32),
  created_at: z.string().max(64),
  completed_at: z.string().max(64).nullable(),
  metrics: backtestMetricsSchema.nullable(),
  // Checked apart (equitySeriesSchema) so that a malformed series is reported as such, not as a refused backtest.
  equity: z.array(z.unknown()).max(MAX_EQUITY_POINTS).optional(),
  error: z
    .looseObject({ title: z.string().max(500).optional(), detail: z.string().max(2000).optional() })
    .optional(),
});
export type Backtest = z.infer<typeof backtestSchema>;

/** The `backtest.completed` event's data. */
export const backtestCompletedSchema = z.object({
  backtest_id: z.string().min(1).max(200),
  total_return: finite,
  benchmark_return: finite,
  max_drawdown: finite.max(0),
  sharpe: finite,
});
export type BacktestCompleted = z.infer<typeof backtestCompletedSchema>;

/** The backtest a `backtest.completed` event's data names, if it is a backtest id by this schema. */
export function backtestIdOf(data: unknown): string | undefined {
  const id = (data as { backtest_id?: unknown } | null | undefined)?.backtest_id;
  const parsed = backtestSchema.shape.id.safeParse(id);
  return parsed.success ? parsed.data : undefined;
}
