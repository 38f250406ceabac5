/**
 * The shape of a check module and of what it is given. A check is a pure function from a context to
 * findings: it reads the spec, the catalog and the evaluation through the context and reports through it,
 * so that no check depends on the parser, the registry or the protocol.
 */
import type { Catalog, CatalogRegistry, Machine } from '../catalog';
import type { CodeTable, Diagnostic, FixData } from '../diagnostics';
import type { Spec, VmSpec } from '../document/types';
import type { VmEval } from '../model/types';
import type { VmAdvice } from '../advice';
import type { Span } from '../text';

export type Report = (code: string, message: string, span: Span | undefined, extra?: Partial<Diagnostic>) => void;

/** The spec as parsed, with its source map (no spec when the text is not one: a YAML error, say). */
export interface SpecContext {
  text: string;
  spec: Spec | undefined;
  /** The value's span at a JSON pointer. */
  at(path: string): Span | undefined;
  /** The key's span at a JSON pointer (the value's where there is no key). */
  key(path: string): Span | undefined;
  /** Whether the spec writes this path. */
  has(path: string): boolean;
  report: Report;
}

/** One VM of the spec, with the catalog edition and region it is checked against, and its figures. */
export interface VmContext extends SpecContext {
  spec: Spec;
  catalog: Catalog;
  region: string;
  /**
   * The VM as this analysis parsed it. Its evaluation may come from the cache, made for an earlier analysis's VM of
   * the same content: the disks of `evaluation` (`d.spec`) are then `evaluation.spec`'s, not `vm`'s, and a change
   * to one of them (`withDisk`) is made to `evaluation.spec`.
   */
  vm: VmSpec;
  /** The machine its spec names, when the catalog knows it. */
  machine?: Machine;
  evaluation: VmEval;
  /** Searches for what would do better; run only when a check asks. */
  advice: VmAdvice;
  /**
   * False where a finding of this code at this place is past the file's cap already (../finding-cap.ts): it will
   * be counted, not listed, so a check may report it without what only a listed finding needs (its advice, its
   * fixes). True wherever that cannot be known yet.
   */
  listed(code: string, span: Span | undefined): boolean;
  /** Where a finding about the machine goes: its machine_type (or series/vcpus) key. */
  machineSpan(): Span | undefined;
  /** The fix that puts machine `m` in place of the VM's, in the way the spec names it. */
  setMachine(m: Machine, title: string, preferred?: boolean): FixData;
  /** The value that names machine `m` for this VM: its machine_type, or its vcpus where it gives a series. */
  machineSetting(m: Machine): { path: string; value: string | number };
}

export interface CheckModule {
  /** Short name of the group: the file name under core/src/checks, and the heading in docs/lint.md. */
  id: string;
  title: string;
  /** One paragraph for docs/lint.md: what the group looks at. */
  about: string;
  codes: CodeTable;
  /** Findings on the text and the spec as a whole (before any catalog look-up; also when the spec did not parse). */
  spec?(ctx: SpecContext): void;
  /** Findings on one VM, once its catalog, machine and figures are known. */
  vm?(ctx: VmContext): void;
}

/** Options the analysis passes down to catalog look-ups. */
export interface CatalogChoice {
  registry: CatalogRegistry;
  defaultCatalog?: string;
  defaultRegion?: string;
}
