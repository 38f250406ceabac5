/**
 * fio: job files generated from a spec, and fio's measurements compared with the model.
 *
 * Generating: `blockers` (which errors stop a VM's jobs), `generate` (types, entry point) → `jobs` (which jobs, how deep), `targets` (where they write, how
 * much), `render` (the .fio text), `syntax` (fio's spelling of sizes, times, paths, names, comments).
 * Comparing: `compare` (types, entry points, matching, editor diagnostics) → `fio-output` (reading fio's JSON),
 * `verdict` (tolerance and verdict), `causes` (likely causes); `svg` draws the comparison.
 */
export * from './generate';
export * from './blockers';
export * from './compare';
export * from './measure';
export * from './svg';
