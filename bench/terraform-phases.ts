/**
 * One cold run of `evaluate FOLDER --format json`'s steps, each timed in this process (ms), printed as JSON:
 * for ./terraform-time's `--phases`. It runs tsc's output (out/), not the bundle: `modules` (loading the
 * compiled modules) is not what the bundle costs (./terraform-time measures that as a process), the rest is the
 * same code, run as cold as in the command. The report is made whole and stringified (the command streams it: the
 * same bytes); `frontEnd` is the .tf reading without the HCL parse, which `parse` is.
 *
 *   node out/bench/terraform-phases.js FOLDER
 */
import { createRequire } from 'node:module';

const t0 = performance.now();
/* eslint-disable @typescript-eslint/no-require-imports */
import core = require('../core/src');
import hcl = require('../protocol/src/hcl-parser');
import catalogFile = require('../cli/src/catalog-file');
import evaluate = require('../cli/src/evaluate');
/* eslint-enable @typescript-eslint/no-require-imports */

type Parse = NonNullable<ReturnType<typeof hcl.hclParser>>;

async function phases(folder: string): Promise<Record<string, number>> {
  const t: Record<string, number> = { modules: performance.now() - t0 };
  let at = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    t[name] = now - at;
    at = now;
  };
  const parse = await hcl.loadHclParser();
  lap('hcl');
  // The front end reads the parser through the module's export when it is built: timed through it.
  let parsing = 0;
  const timedParse: Parse = (text) => {
    const p0 = performance.now();
    try {
      return parse(text);
    } finally {
      parsing += performance.now() - p0;
    }
  };
  (createRequire(__filename)('../protocol/src/hcl-parser') as { hclParser: () => Parse }).hclParser = () => timedParse;
  const registry = catalogFile.loadRegistry([]);
  lap('catalogs');
  const input = evaluate.readInput(folder, {});
  lap('read');
  let front = 0;
  const frontEnd: typeof input.frontEnd =
    input.frontEnd &&
    ((text) => {
      const f0 = performance.now();
      try {
        return input.frontEnd!(text);
      } finally {
        front += performance.now() - f0;
      }
    });
  const analysis = core.analyze(input.text, { registry, cache: new core.EvaluationCache(), frontEnd });
  lap('analysis');
  t.parse = parsing;
  t.frontEnd = front - parsing;
  t.analysis -= front;
  JSON.stringify(core.fileReport(folder, analysis), null, 2);
  lap('json');
  return t;
}

phases(process.argv[2]).then((t) => process.stdout.write(JSON.stringify(t) + '\n'));
