/**
 * Every check module, in the order the analysis runs them. A new finding is a new module (or a code in an
 * existing one) and a line here; the diagnostic codes, the SARIF rules and the code table of docs/lint.md all
 * come from this list.
 */
import { fixTypes, makeDiagnostic, type CodeInfo, type Diagnostic, type FixData, type FixType } from '../diagnostics';
import type { Span } from '../text';
import { attach } from './attach';
import { bursts } from './bursts';
import { catalog } from './catalog';
import { cost } from './cost';
import { diskOptions } from './disk-options';
import { diskSettings } from './disk-settings';
import { document } from './document';
import { egress } from './egress';
import { figureRange } from './figure-range';
import { findingCap } from './finding-cap';
import { fio } from './fio';
import { instanceStore } from './instance-store';
import { provisioning } from './provisioning';
import { volumeFit } from './volume-fit';
import { suppression } from './suppression';
import { targets } from './targets';
import { terraform } from './terraform';
import { unmodelled } from './unmodelled';
import type { CheckModule } from './types';
import { vmCaps } from './vm-caps';

export const CHECKS: readonly CheckModule[] = [
  document,
  catalog,
  attach,
  diskSettings,
  diskOptions,
  vmCaps,
  provisioning,
  volumeFit,
  bursts,
  egress,
  cost,
  targets,
  suppression,
  fio,
  terraform,
  instanceStore,
  unmodelled,
  figureRange,
  findingCap,
];

/** Every diagnostic code, its default severity, a one-line description and its docs (docs, SARIF rules, suppressions). */
export const DIAGNOSTIC_CODES: Readonly<Record<string, CodeInfo>> = (() => {
  const all: Record<string, CodeInfo> = {};
  for (const m of CHECKS) {
    for (const [code, info] of Object.entries(m.codes)) {
      if (all[code]) throw new Error(`diagnostic code ${code} is declared twice (again in ${m.id})`);
      all[code] = info;
    }
  }
  return all;
})();

/** The check module that declares a code. */
export function moduleOf(code: string): CheckModule | undefined {
  return CHECKS.find((m) => Object.hasOwn(m.codes, code));
}

/** A finding of a registered code; an unregistered one is a programming error. */
/** What a fix of a finding does: its own type, else its code's (problem unless the code says otherwise). */
export function fixTypeOf(code: string, fix: FixData): FixType {
  return fix.type ?? DIAGNOSTIC_CODES[code]?.fixType ?? 'problem';
}

/** Every type `lint --fix-type` must name for a fix of a finding to be applied (../diagnostics `fixTypes`). */
export function fixTypesOf(code: string, fix: FixData): FixType[] {
  return fixTypes(fix, DIAGNOSTIC_CODES[code]?.fixType);
}

export function diag(code: string, message: string, span: Span, extra: Partial<Diagnostic> = {}): Diagnostic {
  const info = DIAGNOSTIC_CODES[code];
  if (!info) throw new Error(`unregistered diagnostic code ${code}`);
  return makeDiagnostic(info, code, message, span, extra);
}
