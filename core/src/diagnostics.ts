/**
 * What a finding is: a code, a severity, a message, the span at fault and the fixes that would resolve it.
 * Types only (and the constructor): the codes themselves are declared by the check modules (./checks) and
 * listed by their registry.
 */
import type { Span } from './text';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** What a quick fix would do, in terms of the spec: the server turns these into text edits. */
/**
 * What a fix does to the spec: `problem` corrects what is written (a spelling, a type, a value with one clear
 * reading); `sizing` changes the design (machine, disk type, size, device count, provisioned amounts); `workload`
 * changes what the application does (a workload's block size or queue depth). `lint --fix` applies sizing and
 * workload fixes only when asked (`--fix-type sizing`, `--fix-type workload`), like ESLint's --fix-type.
 */
export type FixType = 'problem' | 'sizing' | 'workload';

/** The workload settings whose change is of type `workload`. */
const WORKLOAD_SETTING = /^\/vms\/\d+\/workloads\/\d+\/(block_size|queue_depth)$/;

/**
 * Every type `lint --fix-type` must name for a fix to be applied: the fix's own type (`fix.type`, else its code's
 * `codeType`), and `workload` too for a design change that also sets a workload's block size or queue depth (a
 * machine with the queue depth it needs).
 */
export function fixTypes(fix: FixData, codeType: FixType = 'problem'): FixType[] {
  const type = fix.type ?? codeType;
  if (type !== 'sizing') return [type];
  const paths =
    fix.kind === 'set-values'
      ? fix.values.map((v) => ('key' in v && v.key ? `${v.path}/${v.key}` : v.path))
      : [fix.kind === 'add-key' ? `${fix.path}/${fix.key}` : fix.path];
  return paths.some((p) => WORKLOAD_SETTING.test(p)) ? ['sizing', 'workload'] : ['sizing'];
}

/** One change of a `set-values` fix: a value set, a key added (`key`), or a key removed (`remove`). */
export type FixValue = { path: string; value: string | number; key?: string } | { path: string; remove: true };

export type FixData = (
  | { kind: 'set-value'; path: string; value: string | number; title: string; preferred?: boolean }
  | { kind: 'remove-key'; path: string; title: string; preferred?: boolean }
  | { kind: 'rename-key'; path: string; key: string; title: string; preferred?: boolean }
  /**
   * Several values at once; an entry with `key` adds that key to the mapping at `path` (a key the spec does not
   * write yet), one with `remove` takes the key at `path` out (a setting the change leaves without effect).
   */
  | { kind: 'set-values'; values: FixValue[]; title: string; preferred?: boolean }
  | { kind: 'add-key'; path: string; key: string; value: string | number; title: string; preferred?: boolean }
) & {
  /** Overrides the code's `fixType` for this one fix. */
  type?: FixType;
};

export interface Diagnostic {
  severity: Severity;
  code: string;
  message: string;
  span: Span;
  /** JSON pointer of the value (or key) at fault, when there is one. */
  path?: string;
  fixes?: FixData[];
}

/** A diagnostic code: its default severity, a one-line description, and the paragraph docs/lint.md gives it. */
export interface CodeInfo {
  severity: Severity;
  summary: string;
  docs: string;
  /** What the code's fixes do (omitted: `problem`). */
  fixType?: FixType;
}

export type CodeTable = Record<string, CodeInfo>;

/** A finding of a registered code (`info` is its entry in the registry). */
/**
 * How long a message may be where a check chooses its words: a line, a fact and what to do. (A value the user wrote
 * and the message quotes may make it longer; `makeDiagnostic` cuts only very long words.)
 */
export const MESSAGE_LENGTH = 240;

export function makeDiagnostic(info: CodeInfo, code: string, message: string, span: Span, extra: Partial<Diagnostic> = {}): Diagnostic {
  // Messages quote the user's values: a 10 MB value must not make a 10 MB message.
  // (Split, not a regex: V8's regex engine overflows its stack on a 10 MB run of one character class.)
  const short =
    message.length > 300
      ? message
          .split(' ')
          .map((w) => (w.length > 120 ? `${w.slice(0, 100)}…${w.slice(-10)}` : w))
          .join(' ')
      : message;
  return { severity: info.severity, code, message: short, span: { start: span.start, end: span.end }, ...extra };
}
