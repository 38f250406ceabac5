/**
 * The "Diagnostic codes" section of docs/lint.md, written from the registry: one table per check module.
 * `npm run docs:codes` writes it into the file; a test fails when the file and the registry differ.
 */
import { CHECKS } from './registry';

export const CODES_BEGIN = '<!-- diagnostic codes: generated from core/src/checks by `npm run docs:codes`; do not edit by hand -->';
export const CODES_END = '<!-- end of diagnostic codes -->';

export function codeTableMarkdown(): string {
  const out = [CODES_BEGIN, ''];
  for (const m of CHECKS) {
    out.push(`### ${m.title}`, '', `${m.about} (\`core/src/checks/${m.id}.ts\`)`, '', '| code | severity | meaning |', '|---|---|---|');
    for (const [code, info] of Object.entries(m.codes)) {
      const applied =
        info.fixType === 'sizing'
          ? ' *Design fix: `--fix` applies it only with `--fix-type sizing`.*'
          : info.fixType === 'workload'
            ? ' *Workload fix: `--fix` applies it only with `--fix-type workload`.*'
            : '';
      out.push(`| <a id="${code}"></a>\`${code}\` | ${info.severity} | ${info.summary} ${info.docs}${applied} |`);
    }
    out.push('');
  }
  out.push(CODES_END);
  return out.join('\n');
}
