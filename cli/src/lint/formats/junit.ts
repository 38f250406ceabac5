/**
 * `junit`: a JUnit XML report for CI test dashboards. One test suite per file, one test case per finding:
 * findings at or above `--fail-on` are failures, those below pass (their text kept in system-out), a file
 * without findings is one passing case, and a file that could not be linted is an error.
 */
import { RANK, type LintResult } from '../types';
import type { FormatContext } from './context';

/** Text safe in XML 1.0 attributes and content: escaped, and without the characters XML cannot hold. */
export function xml(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function junit(result: LintResult, _ctx: FormatContext): string {
  const threshold = RANK[result.failOn];
  const suites: string[] = [];
  let tests = 0,
    failures = 0,
    errors = 0;
  for (const f of result.files) {
    const cases: string[] = [];
    let sFailures = 0,
      sErrors = 0;
    const path = xml(f.path);
    for (const x of f.findings) {
      const name = xml(`${x.line}:${x.column} ${x.code}`);
      const text = xml(`${f.path}:${x.line}:${x.column}: ${x.severity} ${x.code}: ${x.message}`);
      if (RANK[x.severity] >= threshold) {
        sFailures++;
        cases.push(
          `    <testcase classname="${path}" name="${name}" file="${path}" line="${x.line}">\n      <failure type="${x.severity}" message="${xml(x.message)}">${text}</failure>\n    </testcase>`,
        );
      } else {
        cases.push(
          `    <testcase classname="${path}" name="${name}" file="${path}" line="${x.line}">\n      <system-out>${text}</system-out>\n    </testcase>`,
        );
      }
    }
    if (f.error) {
      sErrors++;
      cases.push(
        `    <testcase classname="${path}" name="lint" file="${path}">\n      <error type="lint-error" message="${xml(f.error)}">${xml(f.error)}</error>\n    </testcase>`,
      );
    }
    if (!cases.length) cases.push(`    <testcase classname="${path}" name="no problems" file="${path}"/>`);
    tests += cases.length;
    failures += sFailures;
    errors += sErrors;
    suites.push(
      `  <testsuite name="${path}" tests="${cases.length}" failures="${sFailures}" errors="${sErrors}" skipped="0">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return (
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="storage-perf lint" tests="${tests}" failures="${failures}" errors="${errors}">`,
      ...suites,
      '</testsuites>',
    ].join('\n') + '\n'
  );
}
