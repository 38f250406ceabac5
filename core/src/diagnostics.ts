import type { Span } from './text';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** What a quick fix would do, in terms of the spec: the server turns these into text edits. */
export type FixData =
  | { kind: 'set-value'; path: string; value: string | number; title: string; preferred?: boolean }
  | { kind: 'remove-key'; path: string; title: string; preferred?: boolean }
  | { kind: 'rename-key'; path: string; key: string; title: string; preferred?: boolean }
  | { kind: 'set-values'; values: Array<{ path: string; value: string | number }>; title: string; preferred?: boolean }
  | { kind: 'add-key'; path: string; key: string; value: string | number; title: string; preferred?: boolean };

export interface Diagnostic {
  severity: Severity;
  code: string;
  message: string;
  span: Span;
  /** JSON pointer of the value (or key) at fault, when there is one. */
  path?: string;
  fixes?: FixData[];
}

/** Every diagnostic code, its default severity and a one-line description (docs, SARIF rules, suppressions). */
export const DIAGNOSTIC_CODES: Record<string, { severity: Severity; summary: string }> = {
  'yaml-syntax': { severity: 'error', summary: 'The file is not valid YAML.' },
  'yaml-duplicate-key': { severity: 'error', summary: 'A key appears twice in the same mapping.' },
  'yaml-complex-key': { severity: 'error', summary: 'A mapping key is itself a mapping or list.' },
  'yaml-multiple-documents': { severity: 'warning', summary: 'The file holds more than one YAML document.' },
  'yaml-alias-limit': { severity: 'error', summary: 'Aliases expand the document beyond the size limit.' },
  'empty-spec': { severity: 'error', summary: 'The file holds no spec.' },
  'encoding': { severity: 'error', summary: 'The file is not UTF-8 text (binary, UTF-16, or bytes that are not UTF-8).' },
  'too-many-vms': { severity: 'warning', summary: 'The file has more VMs than the editor evaluates; the rest are only checked.' },
  'unknown-key': { severity: 'error', summary: 'A key the spec format does not define.' },
  'missing-key': { severity: 'error', summary: 'A required key is missing.' },
  'wrong-type': { severity: 'error', summary: 'A value has the wrong type.' },
  'invalid-value': { severity: 'error', summary: 'A value is not one of the allowed values.' },
  'out-of-range': { severity: 'error', summary: 'A number is outside its allowed range.' },
  'unsupported-version': { severity: 'error', summary: 'The spec version is not supported.' },
  'bad-quantity': { severity: 'error', summary: 'A size, throughput or block size cannot be read (bad number or unit).' },
  'duplicate-name': { severity: 'error', summary: 'Two VMs, disks or workloads share a name.' },
  'unknown-catalog': { severity: 'error', summary: 'The catalog edition does not exist.' },
  'catalog-provider-mismatch': { severity: 'error', summary: "The catalog edition is for another provider." },
  'unknown-region': { severity: 'warning', summary: 'The catalog has no prices for this region.' },
  'unknown-machine-type': { severity: 'error', summary: 'The machine type is not in the catalog.' },
  'unknown-series': { severity: 'error', summary: 'The machine series is not in the catalog.' },
  'vcpus-not-offered': { severity: 'error', summary: 'The series does not offer this vCPU count.' },
  'machine-conflict': { severity: 'error', summary: 'machine_type and series/vcpus disagree.' },
  'missing-machine': { severity: 'error', summary: 'A VM needs machine_type, or series and vcpus.' },
  'unknown-disk-type': { severity: 'error', summary: 'The disk type is not in the catalog for this provider.' },
  'disk-type-not-on-series': { severity: 'error', summary: 'The machine series cannot attach this disk type.' },
  'size-out-of-range': { severity: 'error', summary: 'The disk size is outside what the disk type allows.' },
  'missing-size': { severity: 'error', summary: 'The disk needs a size.' },
  'not-applicable': { severity: 'warning', summary: 'A setting that has no effect for this disk type.' },
  'provisioned-out-of-range': { severity: 'error', summary: 'Provisioned IOPS or throughput outside the allowed range.' },
  'unknown-disk-ref': { severity: 'error', summary: 'A workload names a disk the VM does not have.' },
  'local-ssd-count': { severity: 'error', summary: 'The number of local SSD devices is not one the provider allows.' },
  'local-ssd-vcpus': { severity: 'warning', summary: 'Fewer vCPUs per local SSD device than the provider recommends.' },
  'allocation-unit': { severity: 'warning', summary: 'The Yandex disk size is not a whole number of allocation units.' },
  'capped-by-vcpu': { severity: 'warning', summary: "The machine's vCPU-based limit caps the disk below what it could deliver." },
  'capped-by-egress': { severity: 'warning', summary: "The VM's network egress cap limits disk writes." },
  'shared-baseline': { severity: 'information', summary: 'Disks of the same type on one VM share one baseline.' },
  'target-unreachable': { severity: 'error', summary: "The workload's target cannot be met by this configuration." },
  'queue-depth-too-low': { severity: 'warning', summary: 'The queue depth is too low to reach the target (Little\'s law).' },
  'cpu-insufficient': { severity: 'warning', summary: 'Not enough vCPUs to drive the target IOPS.' },
  'block-size-too-small': { severity: 'warning', summary: 'The block size is too small to reach the throughput target.' },
  'overprovisioned': { severity: 'information', summary: 'A cheaper disk type or a smaller disk meets every target.' },
  'hdd-burst': { severity: 'information', summary: 'A small Yandex HDD can burst for a while above its sustained figures.' },
  'sequential-merge': { severity: 'hint', summary: 'Small sequential I/O may be merged by the kernel; measured IOPS may exceed the disk limit.' },
  'machine-limits-unknown': { severity: 'information', summary: 'The catalog has no per-VM limits for this machine and disk type.' },
  'price-unknown': { severity: 'information', summary: 'The catalog has no (or only uncertain) prices for this disk type.' },
  'fio-measurement': { severity: 'information', summary: 'A fio measurement imported from a result file, set against the model\'s prediction.' },
  'unknown-suppression': { severity: 'warning', summary: 'A suppression comment names a diagnostic code that does not exist, or none.' },
};

export function diag(code: string, message: string, span: Span, extra: Partial<Diagnostic> = {}): Diagnostic {
  const info = DIAGNOSTIC_CODES[code];
  if (!info) throw new Error(`unregistered diagnostic code ${code}`);
  // Messages quote the user's values: a 10 MB value must not make a 10 MB message.
  // (Split, not a regex: V8's regex engine overflows its stack on a 10 MB run of one character class.)
  const short = message.length > 300 ? message.split(' ').map((w) => (w.length > 120 ? `${w.slice(0, 100)}…${w.slice(-10)}` : w)).join(' ') : message;
  return { severity: info.severity, code, message: short, span: { start: span.start, end: span.end }, ...extra };
}
