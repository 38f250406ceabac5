/**
 * `storage-perf compare FILE --fio-result RESULT.json [--vm NAME] [--format table|json] [--svg FILE]`:
 * fio's JSON output set against the predictions of the jobs `storage-perf fio` generates for the same spec.
 *
 * Exit codes: 0 when no job failed or fell below expectation; 1 when one did (so CI can gate on a run);
 * 2 for usage and I/O errors.
 */
import { basename } from 'node:path';
import {
  compareFioOutput,
  compareMeasurements,
  comparisonSvg,
  fmt,
  FioResultError,
  type Analysis,
  type Comparison,
  type FioOutputComparison,
} from '../../core/src';
import { table } from './table';
import { escapeData } from './workflow-text';
import { checkVm, loadSpec } from './fio';
import { catalogFiles, parseCommand, UsageError } from './args';
import { ioReason, MAX_NAMED_BYTES, readBounded } from '../../protocol/src/file-io';
import { writeAtomic } from '../../protocol/src/file-write';

export const COMPARE_USAGE = `usage: storage-perf compare FILE --fio-result RESULT.json [--vm NAME] [--format table|json] [--svg OUT.svg]
                            [--catalog-file PATH]...

Compares fio's JSON output (fio --output-format=json) with the predictions of the jobs 'storage-perf fio'
writes for the same spec. Jobs are matched by name.

  --vm NAME        the VM the result was measured on (default: the VM whose job names the result matches)
  --format         table (default) or json
  --svg OUT.svg    also draw measured ÷ predicted per job

examples:
  storage-perf compare db.perf.yaml --fio-result db-data.json
  storage-perf compare db.perf.yaml --fio-result db-data.json --vm db --format json --svg db-data.svg

exit status: 0 no job failed or fell below expectation, 1 some did or no job of the result matches the
spec, 2 usage or I/O error`;

export async function compareCommand(args: string[]): Promise<number> {
  const parsed = parseCommand(
    args,
    {
      'fio-result': { type: 'string' },
      vm: { type: 'string' },
      format: { type: 'string', default: 'table' },
      svg: { type: 'string' },
    },
    COMPARE_USAGE,
  );
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const format = values.format as string;
  if (format !== 'json' && format !== 'table') throw new UsageError(`unknown format '${format}' (table or json)`);
  if (positionals.length !== 1) throw new UsageError(positionals.length ? 'one FILE at a time' : 'no FILE given');
  const resultPath = values['fio-result'] as string | undefined;
  if (resultPath === undefined) throw new UsageError("no --fio-result given (fio's output with --output-format=json)");
  const path = positionals[0];
  const analysis = loadSpec(path, catalogFiles(values));
  checkVm(analysis, values.vm as string | undefined, path);

  let resultText: string;
  try {
    resultText = readBounded(resultPath, { maxBytes: MAX_NAMED_BYTES, pipes: true });
  } catch (e) {
    throw new UsageError(`cannot read ${resultPath}: ${ioReason(e)}`);
  }
  const specName = basename(path);
  let compared: FioOutputComparison;
  try {
    compared = compareFioOutput(analysis, resultText, { vm: values.vm as string | undefined, specName });
  } catch (e) {
    if (e instanceof FioResultError) throw new UsageError(`${resultPath}: ${e.message}`);
    throw e;
  }
  const { vm, comparisons } = compared;
  if (vm === undefined && !matchesAnyVm(analysis, compared, specName)) {
    process.stderr.write(`storage-perf compare: no job of ${escapeData(resultPath)} matches a job generated for ${escapeData(specName)}\n`);
    return 1;
  }
  if (vm === undefined) {
    throw new UsageError(
      `cannot tell which of the VMs (${analysis.vms.map((v) => `'${v.spec.name}'`).join(', ')}) ${resultPath} was measured on: pass --vm NAME`,
    );
  }
  const counts: Partial<Record<Comparison['verdict'], number>> = {};
  for (const c of comparisons) counts[c.verdict] = (counts[c.verdict] ?? 0) + 1;

  if (values.svg !== undefined) {
    try {
      writeAtomic(values.svg as string, comparisonSvg(comparisons, `fio vs storage-perf: VM ${vm} (${specName})`), { kind: 'generated' });
    } catch (e) {
      process.stderr.write(`storage-perf compare: cannot write ${escapeData(values.svg as string)}: ${escapeData(ioReason(e))}\n`);
      return 2;
    }
  }
  if (format === 'json') {
    process.stdout.write(JSON.stringify({ spec: path, result: resultPath, vm, counts, comparisons }, jsonSafe, 2) + '\n');
  } else {
    process.stdout.write(renderTable(path, resultPath, vm, comparisons, counts));
  }
  // No job of the result matches the spec: nothing was compared, which must not read as a pass.
  const matched = comparisons.some((c) => c.verdict !== 'unmatched' && c.verdict !== 'missing');
  if (!matched)
    process.stderr.write(`storage-perf compare: no job of ${escapeData(resultPath)} matches a job generated for ${escapeData(specName)}\n`);
  return !matched || comparisons.some((c) => c.verdict === 'below' || c.verdict === 'failed') ? 1 : 0;
}

/** Whether any VM's generated jobs name a job of the result (else no --vm could make a comparison). */
function matchesAnyVm(analysis: Analysis, compared: FioOutputComparison, specName: string): boolean {
  return analysis.vms.some((v) =>
    compareMeasurements(analysis, v.spec.name, compared.measurements, specName).some(
      (c) => c.verdict !== 'unmatched' && c.verdict !== 'missing',
    ),
  );
}

/** JSON has no Infinity: a ratio against a zero prediction is written as null. */
function jsonSafe(_key: string, v: unknown): unknown {
  return typeof v === 'number' && !Number.isFinite(v) ? null : v;
}

function renderTable(
  path: string,
  resultPath: string,
  vm: string,
  cs: Comparison[],
  counts: Partial<Record<Comparison['verdict'], number>>,
): string {
  const figure = (c: Comparison, side: 'measured' | 'predicted') => {
    const f = c[side];
    if (!f) return '-';
    return fmt(c.metric === 'iops' ? f.read_iops + f.write_iops : f.read_mibps + f.write_mibps, c.metric === 'iops' ? 0 : 1);
  };
  // The slower direction's 99th percentile: what the workload's callers see at the tail.
  const p99 = (c: Comparison) => {
    const m = c.measured;
    const v = m ? Math.max(m.read_p99_ms ?? -1, m.write_p99_ms ?? -1) : -1;
    return v < 0 ? '-' : fmt(v, v < 10 ? 2 : 1);
  };
  const words: Record<Comparison['verdict'], string> = {
    within: 'within expectation',
    below: 'BELOW',
    above: 'ABOVE',
    failed: 'FAILED',
    missing: 'not in result',
    unmatched: 'no prediction',
  };
  const out = [`${resultPath} against ${path}, VM ${vm}`, ''];
  out.push(
    table(
      ['job', 'metric', 'measured', 'p99 ms', 'predicted', 'ratio', 'limited by', 'verdict'],
      cs.map((c) => [
        c.job,
        c.metric === 'iops' ? 'IOPS' : 'MiB/s',
        figure(c, 'measured'),
        p99(c),
        figure(c, 'predicted'),
        c.ratio === undefined ? '-' : Number.isFinite(c.ratio) ? `${c.ratio.toFixed(2)}x` : 'inf',
        c.predicted?.limited_by ?? '-',
        words[c.verdict],
      ]),
    ),
  );
  const explained = cs.filter((c) => c.verdict !== 'within' && c.verdict !== 'missing' && c.causes.length);
  if (explained.length) out.push('');
  for (const c of explained) {
    out.push(`${c.summary} — ${words[c.verdict].toLowerCase()}; likely causes:`);
    for (const cause of c.causes) out.push(`  - ${cause}`);
  }
  const missing = cs.filter((c) => c.verdict === 'missing');
  if (missing.length) {
    out.push('', `not in the result: ${missing.map((c) => c.job).join(', ')} — ${missing[0].causes[0]}`);
  }
  out.push(
    '',
    Object.entries(counts)
      .map(([k, n]) => `${n} ${words[k as Comparison['verdict']]}`)
      .join(', '),
    '',
  );
  return out.join('\n');
}
