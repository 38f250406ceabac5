/**
 * How one measurement is judged against its prediction: the tolerance around the expected range, the verdict,
 * and how the ratio of measured to predicted is written. Kept apart so that the causes and the chart use the
 * same tolerance as the verdict.
 */

export type Verdict = 'within' | 'below' | 'above' | 'failed' | 'missing' | 'unmatched';

/** How far a measurement may stray from the prediction and still be "within expectation". */
export const TOLERANCE = 0.1;

/** A run's verdict from what it measured and the range expected, in the same unit. */
export function verdictOf(got: number, expected: { low: number; high: number }): Verdict {
  return got < expected.low * (1 - TOLERANCE) ? 'below' : got > expected.high * (1 + TOLERANCE) ? 'above' : 'within';
}

export function fmtRatio(r: number): string {
  return Number.isFinite(r) ? `${r.toFixed(2)}×` : '∞×';
}
