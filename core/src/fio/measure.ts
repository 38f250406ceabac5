/**
 * A fio run set against the spec it was run for, written once for every place that does it (the CLI's
 * `compare`, the language server's `storagePerf/compareFio` and the `fio-measurement` diagnostics of an
 * imported result): fio's output parsed, the VM it was measured on picked, the job files it was produced
 * from kept, and their predictions compared with what was measured.
 *
 * Pure: the caller reads the file and words its own errors.
 */
import type { Analysis } from '../analyze';
import {
  compareResults,
  filesForResult,
  FioResultError,
  parseFioOutput,
  parseFioResult,
  vmForResult,
  type Comparison,
  type FioMeasurement,
} from './compare';
import { generateFioJobs } from './generate';

export interface FioOutputComparison {
  measurements: FioMeasurement[];
  /**
   * The VM the result was compared with; undefined when it cannot be told (several VMs match the result's
   * jobs equally well), and then there are no comparisons: the caller asks which VM it was.
   */
  vm?: string;
  comparisons: Comparison[];
}

/**
 * Measurements against the predictions of the jobs generated for `vm`, those of the files the result was
 * produced from. `specName` is how the generated files name the spec, as when they were written.
 */
export function compareMeasurements(analysis: Analysis, vm: string, measurements: FioMeasurement[], specName?: string): Comparison[] {
  return compareResults(filesForResult(generateFioJobs(analysis, { vm, specName }), measurements), measurements);
}

/**
 * fio's output (`--output-format=json`, fio's own message lines tolerated) against the spec's predictions.
 * `vm` is the VM it was measured on; without it, the VM whose generated jobs the result names. Throws a
 * FioResultError when the text is not fio's JSON output or `vm` names no VM of the spec.
 */
export function compareFioOutput(
  analysis: Analysis,
  resultText: string,
  opts: { vm?: string; specName?: string } = {},
): FioOutputComparison {
  const measurements = parseFioResult(parseFioOutput(resultText));
  const generate = (vm: string) => generateFioJobs(analysis, { vm, specName: opts.specName });
  const vm = opts.vm ?? vmForResult(analysis, measurements, generate);
  if (vm === undefined) return { measurements, comparisons: [] };
  if (!analysis.vms.some((v) => v.spec.name === vm)) throw new FioResultError(`the spec has no VM '${vm}'`);
  return { measurements, vm, comparisons: compareMeasurements(analysis, vm, measurements, opts.specName) };
}
