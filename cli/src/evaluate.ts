/** `storage-perf evaluate FILE... --format json|table`: the contract's JSON report, or tables for a terminal. */
import { posix } from 'node:path';
import {
  analyze,
  costText,
  EvaluationCache,
  fileReport,
  fmt,
  fmtMoney,
  plural,
  reportDiagnostics,
  sharedLimitPhrases,
  streamedAnalysis,
  type StreamedAnalysis,
  type VmEval,
  type VmSpec,
  targetVerdict,
  type Analysis,
  type FileReport,
  type VmReport,
  vmReportParts,
} from '../../core/src';
import { catalogFilesOf, loadRegistry, type CatalogFile } from './catalog-file';
import { catalogFiles, parseCommand, terraformVars, TERRAFORM_VAR_OPTIONS, UsageError } from './args';
import { ioReason, isFolder, MAX_NAMED_BYTES, readBounded } from '../../protocol/src/file-io';
import { limitHeapGrowth } from '../../protocol/src/heap';
import { indented, jsonChunks, nestedJson, writeChunks, type Chunk, type PrewrittenJson } from './json-writer';
import { folderInput, inputForFile, needsHclParser, type AnalysisInput, type TfInputOptions } from '../../protocol/src/terraform-input';
import { loadHclParser } from '../../protocol/src/hcl-parser';
import { table } from './table';
import { escapeData } from './workflow-text';
import { applySets, renderWhatIf } from './what-if';

const EVALUATE_USAGE = `usage: storage-perf evaluate FILE... [--format table|json] [--set PATH=VALUE]... [--catalog-file PATH]...

  --format table|json   tables for a terminal (default), or the JSON report
  --var-file FILE       Terraform: a file of the root module's variable values (any name; .json is JSON), after
                          terraform.tfvars and *.auto.tfvars beside the .tf files (may be repeated)
  --var NAME=VALUE      Terraform: a root module variable's value, after every file (may be repeated)
  --follow-links        read a plan or module a file names through links out of its repository (refused by
                          default: docs/robustness.md)
  --root DIR            Terraform: the folder module sources (and paths a file names) are read in, instead
                          of the repository the file is in; a source outside it is refused
  --set PATH=VALUE      what if: evaluate FILE with a value changed, and show what changes, e.g.
                          --set vms.db.machine_type=n2-standard-16
                          --set vms.db.disks.data.size=1TiB --set region=europe-west4
                        on Terraform (a plan, a .tf file, a module): ADDRESS.ATTRIBUTE=VALUE, e.g.
                          --set google_compute_instance.db.machine_type=n2-standard-16
                        (JSON: the changed spec's report, with the original's under what_if.before)

examples:
  storage-perf evaluate examples/storage.perf.yaml
  storage-perf evaluate specs/*.perf.yaml --format json > report.json

exit status: 0 no finding at error level, 1 one is (a YAML error, an unknown machine...; the report is still
printed whole), 2 a file cannot be read or the usage is wrong`;

export async function evaluateCommand(args: string[]): Promise<number> {
  const parsed = parseCommand(
    args,
    {
      format: { type: 'string', default: 'table' },
      set: { type: 'string', multiple: true },
      ...TERRAFORM_VAR_OPTIONS,
    },
    EVALUATE_USAGE,
  );
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  const format = values.format as string;
  if (format !== 'json' && format !== 'table') throw new UsageError(`unknown format '${format}' (json or table)`);
  if (!positionals.length) throw new UsageError('no FILE given');
  const registry = loadRegistry(catalogFiles(values));
  const sets = (values.set as string[] | undefined) ?? [];
  const tfOptions = terraformVars(values);
  if (sets.length) return whatIf(positionals, sets, format, registry, tfOptions);

  // A large spec's parse leaves as much garbage as it keeps: collect it before the heap doubles (protocol/src/heap.ts).
  limitHeapGrowth();
  const files: Array<FileReport | StreamedFile> = [];
  // VMs written alike (all but their names and places) are evaluated once, in one file and across files.
  const cache = new EvaluationCache();
  let unreadable = false;
  if (positionals.some(needsHclParser)) await loadHclParser();
  for (const path of positionals) {
    let input: AnalysisInput;
    try {
      input = readInput(path, tfOptions);
    } catch (e) {
      process.stderr.write(`storage-perf evaluate: cannot read ${escapeData(path)}: ${escapeData(ioReason(e))}\n`);
      unreadable = true;
      continue;
    }
    const options = { registry, cache, frontEnd: input.frontEnd };
    files.push(
      format === 'json' ? streamedReport(path, streamedAnalysis(input.text, options)) : fileReport(path, analyze(input.text, options)),
    );
  }
  if (format === 'json') await writeChunks(jsonLines({ files, ...catalogFilesField(registry) }), process.stdout);
  else
    await writeChunks(
      (files as FileReport[]).map((f, i) => (i ? '\n' : '') + renderFile(f)),
      process.stdout,
    );
  // The report is always whole; the exit status says whether to trust it (the contract, section 1).
  if (unreadable) return 2;
  return files.some((f) => f.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}

/** A file's text and front end, or a Terraform module folder's files. */
export function readInput(path: string, options: TfInputOptions): AnalysisInput {
  if (!isFolder(path)) return inputForFile(path, readBounded(path, { maxBytes: MAX_NAMED_BYTES, pipes: true }), options);
  const input = folderInput(path, options);
  if (!input) throw new Error('a folder is read as a Terraform module, and this one has no .tf file');
  return input;
}

/**
 * A file's report whose VMs are made as they are written: each VM is evaluated, checked, reported and let go
 * before the next, so that a spec of many VMs is never held whole, nor its report. Written as JSON, it is the same
 * as `fileReport`'s (the key order too).
 */
type StreamedFile = Omit<FileReport, 'vms'> & { vms: Iterable<VmReport> };

function streamedReport(path: string, s: StreamedAnalysis): StreamedFile {
  const a = s.analysis;
  const vms = s.vms();
  const file: StreamedFile = { ...fileReport(path, a), vms: prewrittenVms(a, vms, s.alike) as Iterable<VmReport> };
  // The findings follow the VMs in the report, as they do in the object: they are whole once every VM is checked.
  let diagnostics: FileReport['diagnostics'] | undefined;
  return Object.defineProperty(file, 'diagnostics', {
    enumerable: true,
    get: () => {
      // Whatever VMs the writer left unread (none: it writes them first) are checked before the findings are read.
      for (const _ of vms);
      return (diagnostics ??= reportDiagnostics(a));
    },
  });
}

/**
 * The report's VMs as JSON: VMs written alike share one report but for the name (vmReportParts), so its text is
 * written once for them, and each VM's is its name's line and that text. The same bytes as JSON.stringify.
 */
function* prewrittenVms(a: Analysis, vms: Iterable<VmEval>, alike: (vm: VmSpec) => boolean): Generator<PrewrittenJson> {
  // Each shared text is encoded as UTF-8 once, at the indentation of its place: 58 MB of JSON for 10,000 VMs is
  // then copied, not encoded again for every VM.
  const texts = new WeakMap<object, { body: string; indent?: string; encoded?: Uint8Array }>();
  const head = (name: string) => `{\n  "name": ${JSON.stringify(name)}`;
  for (const { name, report, own, shared } of vmReportParts(a, vms, alike)) {
    // A VM of its own kind (most, in a fleet of distinct VMs): its JSON is made once, where it is written.
    if (!shared) {
      yield { prewritten: (indent) => [nestedJson(own ? report : { ...report, name }, indent)] };
      continue;
    }
    let t = texts.get(report);
    // Made with the name of the VM it was made for, the first of those it is shared by: the rest is theirs too.
    if (!t) texts.set(report, (t = { body: JSON.stringify(report, null, 2).slice(head(report.name).length) }));
    const text = t;
    yield {
      prewritten: (indent) => {
        if (text.indent !== indent) [text.indent, text.encoded] = [indent, Buffer.from(indented(text.body, indent), 'utf8')];
        return [indented(head(name), indent), text.encoded!];
      },
    };
  }
}

/** `catalog_files`: the catalogs not built in (`--catalog-file`), each its path and edition; absent without one. */
function catalogFilesField(registry: ReturnType<typeof loadRegistry>): { catalog_files?: CatalogFile[] } {
  const files = catalogFilesOf(registry);
  return files.length ? { catalog_files: files } : {};
}

/** The report as JSON (`JSON.stringify(report, null, 2)`), in pieces. */
function* jsonLines(report: { files: Array<FileReport | StreamedFile>; catalog_files?: CatalogFile[] }): Generator<Chunk> {
  yield* jsonChunks(report);
  yield '\n';
}

/** `--set`: one spec, evaluated as written and with the values changed. */
async function whatIf(
  paths: string[],
  sets: string[],
  format: string,
  registry: ReturnType<typeof loadRegistry>,
  tfOptions: TfInputOptions,
): Promise<number> {
  if (paths.length !== 1) throw new UsageError('--set evaluates one FILE at a time');
  if (needsHclParser(paths[0])) await loadHclParser();
  let input: AnalysisInput;
  try {
    input = readInput(paths[0], tfOptions);
  } catch (e) {
    process.stderr.write(`storage-perf evaluate: cannot read ${escapeData(paths[0])}: ${escapeData(ioReason(e))}\n`);
    return 2;
  }
  const changed = applySets(input, sets);
  const before = fileReport(paths[0], analyze(input.text, { registry, frontEnd: input.frontEnd }));
  const after = fileReport(paths[0], analyze(changed.text, { registry, frontEnd: changed.frontEnd }));
  if (format === 'json')
    process.stdout.write(
      JSON.stringify({ files: [{ ...after, what_if: { set: sets, before } }], ...catalogFilesField(registry) }, null, 2) + '\n',
    );
  else process.stdout.write(renderWhatIf(sets, before, after) + '\n' + renderFile(after));
  return after.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}

const TARGET_UNITS: Array<[keyof FileReport['vms'][number]['workloads'][number]['target'], string]> = [
  ['iops', 'IOPS'],
  ['read_iops', 'read IOPS'],
  ['write_iops', 'write IOPS'],
  ['mibps', 'MiB/s'],
  ['read_mibps', 'read MiB/s'],
  ['write_mibps', 'write MiB/s'],
];

/** The targets as parsed (throughput in MiB/s, whatever unit the spec used), then the verdict. */
function targetCell(w: FileReport['vms'][number]['workloads'][number]): string {
  const parsed = TARGET_UNITS.filter(([k]) => w.target[k] !== undefined).map(([k, unit]) => `${fmt(w.target[k]!)} ${unit}`);
  if (!parsed.length) return '-';
  // A target the figures cannot judge (a VM without figures, local SSD on too few vCPUs) says so.
  const verdict = targetVerdict(w.meets_target, w.headroom) ?? 'not judged';
  return `${parsed.join(', ')}: ${verdict}`;
}

function renderFile(f: FileReport): string {
  const cur = f.currency ?? 'USD';
  const money = (x: number | null) => (x === null ? '?' : fmtMoney(x, cur));
  // Null figures belong to a VM whose figures are unavailable; such a VM prints its reason, not tables.
  const num = (x: number | null, digits = 0) => (x === null ? '-' : fmt(x, digits));
  // A partial sum is said as one: "at least $138.00 (IOPS price unknown in europe-west4)".
  const total = (x: { monthly_cost: number | null; monthly_cost_complete: boolean; monthly_cost_missing: string[] }) =>
    costText(x.monthly_cost ?? undefined, x.monthly_cost_complete, x.monthly_cost_missing, cur, '/month');
  const out: string[] = [`${f.path}  (catalog ${f.catalog ?? '?'}, region ${f.region ?? '?'})`, ''];
  if (f.terraform) out.splice(1, 0, terraformLine(f.terraform, /\.json$/i.test(f.path) ? 'Terraform plan' : 'Terraform module'));
  for (const vm of f.vms) {
    out.push(
      `VM ${vm.name}: ${vm.machine_type ?? '?'}${vm.vcpus && !vm.machine_type?.includes('vCPU') ? `, ${plural(vm.vcpus, 'vCPU')}` : ''} — ${total(vm)} · machine ${money(vm.machine_monthly_cost)}, disks ${money(vm.disks_monthly_cost)}`,
    );
    if (vm.figures_unavailable !== null) {
      out.push(`  no figures: ${vm.figures_unavailable}`, '');
      continue;
    }
    out.push(
      table(
        ['disk', 'type', 'GiB', 'read IOPS', 'write IOPS', 'read MiB/s', 'write MiB/s', 'limited by (r/w IOPS, r/w MiB/s)', 'per month'],
        vm.disks.map((d) => {
          // Figures that are only upper bounds say so: "≤ 50,000", and why beside what limits them.
          const le = (x: string) => (d.upper_bound && x !== '-' ? `≤ ${x}` : x);
          return [
            d.name,
            d.type,
            num(d.size_gib),
            le(num(d.read_iops)),
            le(num(d.write_iops)),
            le(num(d.read_mibps, 1)),
            le(num(d.write_mibps, 1)),
            (d.limited_by
              ? `${d.limited_by.read_iops}/${d.limited_by.write_iops}, ${d.limited_by.read_mibps}/${d.limited_by.write_mibps}`
              : '-') + (d.upper_bound ? ` (${d.upper_bound})` : ''),
            `${d.monthly_cost_complete || d.monthly_cost === null ? '' : '>= '}${money(d.monthly_cost)}`,
          ];
        }),
      ),
    );
    // The limits the disks share, said once: each disk's figures above are what it delivers alone.
    for (const phrase of sharedLimitPhrases(vm.shared_limits)) out.push(`shared: ${phrase}`);
    if (vm.workloads.length) {
      out.push('');
      out.push(
        table(
          ['workload', 'read IOPS', 'write IOPS', 'read MiB/s', 'write MiB/s', 'limited by', 'target'],
          vm.workloads.map((w) => {
            // On disks whose figures are upper bounds, the workload's are too: marked as the disks' are.
            const ceiling = w.upper_bound;
            const le = ceiling ? '≤ ' : '';
            const figure = (x: number | null, digits = 0) => (x === null ? '-' : `${x > 0 ? le : ''}${fmt(x, digits)}`);
            return [
              w.name,
              figure(w.read_iops),
              figure(w.write_iops),
              figure(w.read_mibps, 1),
              figure(w.write_mibps, 1),
              `${w.limited_by ?? '-'}${ceiling ? ` (${ceiling})` : ''}`,
              targetCell(w),
            ];
          }),
        ),
      );
      // Figures that hold for a while, under the sustained ones that meet or miss the targets.
      for (const w of vm.workloads)
        if (w.burst)
          out.push(
            `${w.name} while bursting: ${w.burst.summary} (${w.burst.ends === 'credits' ? 'burst credits' : w.burst.ends === 'on-demand' ? 'on-demand bursting, billed per burst transaction' : "the instance's burst window"})`,
          );
    }
    out.push('');
  }
  const loose = f.unattached_disks ?? [];
  out.push(...unattachedLines(loose, money, num));
  if (f.monthly_cost !== null && (f.vms.length > 1 || loose.length)) out.push(`file total: ${total(f)}`, '');
  for (const d of f.diagnostics) out.push(`${fileOf(f.path, d.file)}:${d.line}:${d.column}: ${d.severity} ${d.code}: ${d.message}`);
  return out.join('\n') + '\n';
}

/** Terraform: the disks attached to no VM, priced apart (part of the file total, never of a VM's). */
function unattachedLines(
  loose: NonNullable<FileReport['unattached_disks']>,
  money: (x: number | null) => string,
  num: (x: number | null) => string,
): string[] {
  if (!loose.length) return [];
  return [
    'Disks attached to no VM (no figures; priced apart, in the file total):',
    table(
      ['disk', 'type', 'GiB', 'region', 'per month'],
      loose.map((d) => [
        d.name,
        d.type || '?',
        num(d.size_gib),
        d.region,
        `${d.monthly_cost_complete || d.monthly_cost === null ? '' : '>= '}${money(d.monthly_cost)}`,
      ]),
    ),
    '',
  ];
}

/** Where a finding is: the file given, or for a Terraform module the .tf file of it (a path relative to its folder). */
function fileOf(given: string, file: string | undefined): string {
  if (file === undefined) return given;
  return posix.join(/\.tf(?:\.json)?$/i.test(given) ? posix.dirname(given) : given, file);
}

/** What a Terraform plan held beyond its VMs and disks: counted, so that nothing is silently left out. */
function terraformLine(t: NonNullable<FileReport['terraform']>, what: string): string {
  const types = Object.entries(t.ignored_types).map(([type, n]) => `${type} ×${n}`);
  const n = t.without_instances.length;
  const none = n
    ? `; ${n === 1 ? '1 that runs VMs creates' : `${n} that run VMs create`} none with these values (a count or for_each of 0: ${t.without_instances.join(', ')})`
    : '';
  return `${what}: ${plural(t.resources, 'resource')}; ${t.ignored_resources} of other types ignored${types.length ? ` (${types.join(', ')})` : ''}${none}`;
}
