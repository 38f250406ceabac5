/**
 * Which machine a VM is: a machine type name (predefined, with a suffix, custom or shared-core) or a series and
 * vCPU count, resolved against a catalog's machine_series. A name either resolves as written or fails with
 * what the catalog offers instead: it is never read as a nearby name (n2-standard-8-foo is not n2-standard-8).
 */
import { suggest } from '../document/suggest';
import { anyCase, namedSizes, nameRule, shapeIndex } from './shape-index';
import { MACHINE_MEMO_LIMIT, shared, type Machine } from './shared-machines';
import type { Catalog, CustomMachineRule, FixedLocalSsd, MachineSeries, VcpuRun } from './types';

export type { Machine } from './shared-machines';
export { MachineMemo } from './shared-machines';

export type MachineResult =
  | { ok: true; machine: Machine }
  | {
      ok: false;
      code: string;
      message: string;
      on: 'machine_type' | 'series' | 'vcpus';
      /** The closest value that is valid for the key at fault, when one follows from what was written. */
      fix?: string | number;
    };

type Failure = Extract<MachineResult, { ok: false }>;

const unknownType = (message: string, fix?: string): Failure => ({
  ok: false,
  code: 'unknown-machine-type',
  on: 'machine_type',
  message,
  fix,
});

/** A real-looking type the edition has no limits for: said so, with no figures, and never read as another type. */
const unmodelledType = (message: string): Failure => ({ ok: false, code: 'unmodelled-machine-type', on: 'machine_type', message });

/** The size part of an AWS instance type name (t4g.small, m6i.2xlarge, m7i.metal-24xl), as AWS names sizes. */
const AWS_SIZE_RE = /^(?:nano|micro|small|medium|large|\d*xlarge|metal(?:-\d+xl)?)$/;

/** <series>-<family>-<vCPUs>[-<suffix>]: the suffix starts with a letter, so a number after the vCPUs never matches. */
const PREDEFINED_RE = /^([a-z][a-z0-9]*)-([a-z]+)-(\d+)(?:-([a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*))?$/;
/** What follows a custom prefix: vCPUs or a shared-core size, memory in MiB, and the extended-memory mark. */
const CUSTOM_REST_RE = /^(?:(\d+)|([a-z]+))-(\d+)(-ext)?$/;
const CUSTOM_ANY_RE = /^(?:([a-z][a-z0-9]*)-)?custom-/;

// Machines are looked up for every VM and for every candidate a search tries: answers are kept per catalog
// (bounded: an editor sees a new name at every keystroke).
const resolvedMemo = new WeakMap<Catalog, Map<string, MachineResult>>();

/**
 * A machine with its vCPU count for a message, said once: "n2-standard-8 (8 vCPUs)", but "standard-v3 with
 * 16 vCPUs" for a machine given by series and vCPUs, whose name already says it.
 */
export function withVcpus(m: { name: string; vcpus: number }): string {
  const count = `${m.vcpus} vCPU${m.vcpus === 1 ? '' : 's'}`;
  return m.name.endsWith(` with ${count}`) ? m.name : `${m.name} (${count})`;
}

/** Resolves a machine type name (n2-standard-8, e2-medium, n2-custom-6-16384) or a series + vCPU pair. */
export function resolveMachine(c: Catalog, spec: { machine_type?: string; series?: string; vcpus?: number }): MachineResult {
  let memo = resolvedMemo.get(c);
  if (!memo) resolvedMemo.set(c, (memo = new Map()));
  const key = spec.machine_type !== undefined ? `t${spec.machine_type}` : `s${spec.series}\u0000${spec.vcpus}`;
  let r = memo.get(key);
  if (!r) {
    if (memo.size >= MACHINE_MEMO_LIMIT) memo.clear();
    r = resolveUncached(c, spec);
    // The machine a larger one found from another would be, when that came first (`shared`).
    if (r.ok) r = { ok: true, machine: shared(r.machine) };
    memo.set(key, r);
  }
  return r;
}

function resolveUncached(c: Catalog, spec: { machine_type?: string; series?: string; vcpus?: number }): MachineResult {
  if (spec.machine_type !== undefined) return asWritten(resolveMachineType(c, spec.machine_type), spec.machine_type, 'machine_type');
  if (spec.series !== undefined) return asWritten(resolveSeries(c, spec.series, spec.vcpus), spec.series, 'series');
  return { ok: false, code: 'missing-machine', on: 'machine_type', message: 'a VM needs machine_type, or series and vcpus' };
}

/**
 * Names are read as written, and every provider's are lower case: a name in capitals (N2-STANDARD-8) that would
 * resolve in lower case is not read as the machine it resembles, but refused with that spelling as its fix.
 */
function asWritten(r: MachineResult, written: string, on: 'machine_type' | 'series'): MachineResult {
  const lower = written.trim().toLowerCase();
  if (lower === written.trim() || !r.ok || anyCase(r.machine.name)) return r;
  const what = on === 'series' ? 'series' : 'machine type';
  return {
    ok: false,
    code: on === 'series' ? 'unknown-series' : 'unknown-machine-type',
    on,
    message: `'${written}': ${what} names are lower case and read as written; write ${lower}`,
    fix: on === 'series' ? lower : r.machine.name,
  };
}

function resolveMachineType(c: Catalog, written: string): MachineResult {
  const mt = written.trim().toLowerCase();
  const named = shapeIndex(c).get(mt);
  if (named) return { ok: true, machine: named };
  for (const [series, info] of Object.entries(c.machine_series)) {
    const v = info.shapes?.[mt];
    if (v !== undefined) return { ok: true, machine: { series, vcpus: v, name: mt, info, local_ssd: localSsdOf(info, mt) } };
  }
  if (CUSTOM_ANY_RE.test(mt)) return resolveCustom(c, mt, written);
  const family = knownFamily(c, mt, written);
  if (family) return family;
  const m = PREDEFINED_RE.exec(mt);
  if (!m) return guessed(c, mt, `unknown machine type '${written}' in ${c.edition}; ${nameRule(c)}`);
  const info = c.machine_series[m[1]];
  if (!info) return guessed(c, mt, `unknown machine type '${written}': ${c.edition} has no series '${m[1]}'`);
  const r = resolvePredefined(c, { series: m[1], family: m[2], vcpus: Number(m[3]), suffix: m[4] }, info);
  return r.ok || r.fix !== undefined ? r : guessed(c, mt, r.message);
}

/**
 * A <family>.<size> name (AWS) not in the edition: a misspelt size (m6i.2xlarg → m6i.2xlarge), or, written as AWS
 * writes sizes, a type the edition lacks (m7g.24xlarge; t2.micro or c7a.large, of a family it does not model):
 * `unmodelled-machine-type`, with no figures, never guessed into another size or family.
 */
function knownFamily(c: Catalog, mt: string, written: string): Failure | undefined {
  const dot = mt.indexOf('.');
  if (dot <= 0) return undefined;
  const [family, size] = [mt.slice(0, dot), mt.slice(dot + 1)];
  const shapes = c.machine_series[family]?.shapes;
  const sizes = shapes ? Object.keys(shapes).filter((n) => n.startsWith(`${family}.`)) : [];
  if (sizes.length) {
    const typo = AWS_SIZE_RE.test(size) ? undefined : typoOf(mt, sizes);
    if (typo) return unknownType(`unknown machine type '${written}' in ${c.edition}; ${nameRule(c)}; did you mean ${typo}?`, typo);
    const list = sizes.map((n) => n.slice(dot + 1)).join(', ');
    return AWS_SIZE_RE.test(size)
      ? unmodelledType(`${c.edition} has no ${mt}, so it has no figures: its ${family} sizes are ${list}`)
      : unknownType(`${family} in ${c.edition} comes in ${list}: not '${written.trim().slice(dot + 1)}'`);
  }
  if (shapes || !namedSizes(c)) return undefined;
  if (c.other_series?.series.includes(family) || AWS_SIZE_RE.test(size)) {
    return unmodelledType(
      `${family} is an instance family ${c.edition} does not model (no EBS limits or vCPUs for it), so '${written}' has no figures`,
    );
  }
  return unknownType(`unknown machine type '${written}' in ${c.edition}; ${nameRule(c)}`);
}

/**
 * The name a misspelt one was meant to be: within two edits, and with the same numbers, so that another size
 * (m7g.24xlarge is not m7g.2xlarge) or another family (c5.16xlarge is not m5.16xlarge) is never offered as one.
 */
function typoOf(mt: string, names: string[]): string | undefined {
  const numbers = (x: string) => (x.match(/\d+/g) ?? []).join('-');
  return suggest(
    mt,
    names.filter((n) => numbers(n) === numbers(mt)),
  );
}

/** A failure whose fix is the real machine type within two edits of what was written, if there is one. */
function guessed(c: Catalog, mt: string, message: string): Failure {
  const names = machineTypeNames(c).map((x) => x.name);
  // A family the edition has is not misspelt for another one: only names of it are offered.
  const family = mt.includes('.') ? mt.slice(0, mt.indexOf('.') + 1) : undefined;
  const among = family && names.some((n) => n.startsWith(family)) ? names.filter((n) => n.startsWith(family)) : names;
  // Names a provider writes with capitals (Azure's Standard_D8s_v5) are compared in lower case, as they are read.
  const byLower = new Map(among.map((n) => [n.toLowerCase(), n]));
  const found = typoOf(mt, [...byLower.keys()]);
  const guess = found === undefined ? undefined : byLower.get(found);
  return unknownType(guess ? `${message}; did you mean ${guess}?` : message, guess);
}

interface Parts {
  series: string;
  family: string;
  vcpus: number;
  suffix?: string;
}

function resolvePredefined(c: Catalog, p: Parts, info: MachineSeries): MachineResult {
  const { series, family, vcpus, suffix } = p;
  const plain = info.families?.[family];
  const base = `${series}-${family}`;
  const suffixed = Object.values(info.suffixes ?? {}).some((s) => s.families[family]);
  if (!plain && !suffixed) {
    return unknownType(
      `${series} has no '${family}' machines in ${c.edition}; families: ${Object.keys(info.families ?? {}).join(', ') || 'none'}`,
    );
  }
  // Where a suffix is wrong, the closest real type is the family's plain type nearest in vCPUs.
  const plainName = plain?.length ? `${base}-${nearest(plain, vcpus)}` : undefined;
  if (suffix === undefined) {
    if (plain?.includes(vcpus)) return { ok: true, machine: predefined(info, p) };
    return unknownType(`${base} comes with ${plain?.join(', ') || 'no plain'} vCPUs, not ${vcpus}`, plainName);
  }
  const sx = info.suffixes?.[suffix];
  if (!sx) {
    const known = Object.keys(info.suffixes ?? {}).map((s) => `-${s}`);
    const takes = known.length ? `only ${known.join(', ')}` : 'no suffix';
    const message = `'${base}-${vcpus}-${suffix}': ${series} machine types take ${takes} in ${c.edition}`;
    // A near-miss suffix (c3-standard-8-lsd) is a typo of a real one; anything else is dropped by the fix.
    const typo = guessed(c, `${base}-${vcpus}-${suffix}`, message);
    return typo.fix !== undefined ? typo : unknownType(message, plainName);
  }
  const list = sx.families[family];
  if (!list?.includes(vcpus)) {
    if (list?.length)
      return unknownType(
        `${base}-N-${suffix} comes with N = ${list.join(', ')}, not ${vcpus}`,
        `${base}-${nearest(list, vcpus)}-${suffix}`,
      );
    return unknownType(`${base} has no -${suffix} types`, plainName);
  }
  return { ok: true, machine: predefined(info, p) };
}

function predefined(info: MachineSeries, p: Parts): Machine {
  const name = `${p.series}-${p.family}-${p.vcpus}${p.suffix ? `-${p.suffix}` : ''}`;
  const sx = p.suffix ? info.suffixes?.[p.suffix] : undefined;
  return {
    series: p.series,
    family: p.family,
    vcpus: p.vcpus,
    name,
    // Bare-metal types attach fewer disk types than the series (Hyperdisk only).
    info: sx?.disk_types ? { ...info, disk_types: sx.disk_types } : info,
    suffix: p.suffix,
    local_ssd: localSsdOf(info, name),
  };
}

export function localSsdOf(info: MachineSeries, name: string): FixedLocalSsd | undefined {
  for (const t of info.fixed_local_ssd ?? []) {
    const count = t.counts[name];
    if (count !== undefined) return { count, device_gib: t.device_gib };
  }
  return undefined;
}

function resolveSeries(c: Catalog, written: string, vcpus: number | undefined): MachineResult {
  const series = written.trim().toLowerCase();
  const info = c.machine_series[series];
  if (!info) {
    return {
      ok: false,
      code: 'unknown-series',
      on: 'series',
      message: `unknown series '${written}' in ${c.edition}; known: ${Object.keys(c.machine_series).join(', ')}`,
    };
  }
  if (vcpus === undefined) return { ok: false, code: 'missing-machine', on: 'series', message: 'a VM given by series also needs vcpus' };
  const offered = vcpuChoices(info);
  if (offered.length && !offered.includes(vcpus)) {
    return {
      ok: false,
      code: 'vcpus-not-offered',
      on: 'vcpus',
      message: `${series} comes with ${offered.join(', ')} vCPUs, not ${vcpus}${customHint(info, vcpus)}`,
      fix: nearest(offered, vcpus),
    };
  }
  const family = info.families ? Object.keys(info.families).find((f) => info.families![f].includes(vcpus)) : undefined;
  const name = family ? `${series}-${family}-${vcpus}` : `${series} with ${vcpus} vCPUs`;
  return { ok: true, machine: { series, family, vcpus, name, info } };
}

/** Where a custom type of the series has this vCPU count, the way to name it: series+vcpus names predefined types only. */
function customHint(info: MachineSeries, vcpus: number): string {
  const rule = info.custom;
  return rule && inRuns(rule.vcpus, vcpus) ? `; a custom type with ${vcpus} is machine_type ${rule.prefix}-${vcpus}-<MiB>` : '';
}

// ---- custom machine types --------------------------------------------------------------------------------

function resolveCustom(c: Catalog, mt: string, written: string): MachineResult {
  for (const [series, info] of Object.entries(c.machine_series)) {
    const rule = info.custom;
    if (rule && mt.startsWith(`${rule.prefix}-`)) return customShape(series, info, rule, mt.slice(rule.prefix.length + 1), written);
  }
  const series = CUSTOM_ANY_RE.exec(mt)?.[1] ?? 'n1';
  const known = Object.values(c.machine_series)
    .filter((i) => i.custom)
    .map((i) => `${i.custom!.prefix}-…`);
  return unknownType(
    `${c.edition} has no custom-machine rules for ${series}, so this type cannot be checked; it has rules for ${known.join(', ') || 'none'}`,
  );
}

function customShape(series: string, info: MachineSeries, rule: CustomMachineRule, rest: string, written: string): MachineResult {
  const m = CUSTOM_REST_RE.exec(rest);
  if (!m) return unknownType(`'${written}' is not a custom machine type: write ${rule.prefix}-<vCPUs>-<memory MiB>[-ext]`);
  const memory = Number(m[3]);
  const extended = m[4] !== undefined;
  if (m[2] !== undefined) return sharedCoreShape(series, info, rule, m[2], memory, extended);
  const vcpus = Number(m[1]);
  const fix = nearestCustom(rule, vcpus, memory, extended);
  const name = (v: number, mem: number, ext: boolean) => `${rule.prefix}-${v}-${mem}${ext ? '-ext' : ''}`;
  const fixName = name(fix.vcpus, fix.memory, fix.extended);
  if (!inRuns(rule.vcpus, vcpus))
    return unknownType(`${series} custom machines take these vCPU counts: ${describeRuns(rule.vcpus)}; not ${vcpus}`, fixName);
  const problem = memoryProblem(series, rule, vcpus, memory, extended);
  if (problem) return unknownType(problem, fixName);
  return { ok: true, machine: { series, vcpus, name: name(vcpus, memory, extended), info, custom: { memory_mib: memory, extended } } };
}

/** Why `memory` MiB does not fit a custom machine of `vcpus`, in the rule's own terms; undefined when it fits. */
function memoryProblem(series: string, rule: CustomMachineRule, vcpus: number, memory: number, extended: boolean): string | undefined {
  const { min, max } = memoryRange(rule, vcpus, extended);
  const per = rule.memory_mib_per_vcpu;
  if (extended && rule.extended_max_mib === undefined) return `${series} custom machines have no extended memory (-ext)`;
  if (memory % rule.memory_step_mib !== 0) return `custom memory is a multiple of ${rule.memory_step_mib} MiB; ${memory} is not`;
  if (memory >= min && memory <= max) return undefined;
  const ext = rule.extended_max_mib !== undefined ? `; -ext allows up to ${rule.extended_max_mib} MiB in all` : '';
  return `${series} custom machines take ${per.min} to ${per.max} MiB per vCPU (${min} to ${max} MiB for ${vcpus}), not ${memory}${extended ? '' : ext}`;
}

export function memoryRange(rule: CustomMachineRule, vcpus: number, extended: boolean): { min: number; max: number } {
  const step = rule.memory_step_mib;
  const min = Math.ceil((rule.memory_mib_per_vcpu.min * vcpus) / step) * step;
  const max =
    extended && rule.extended_max_mib !== undefined
      ? rule.extended_max_mib
      : Math.floor((rule.memory_mib_per_vcpu.max * vcpus) / step) * step;
  return { min, max };
}

/** The valid custom shape closest to what was written: nearest vCPU count, memory rounded into its range. */
function nearestCustom(rule: CustomMachineRule, vcpus: number, memory: number, extended: boolean) {
  const v = nearest(runValues(rule.vcpus), vcpus);
  const ext = extended && rule.extended_max_mib !== undefined;
  const { min, max } = memoryRange(rule, v, ext);
  const rounded = Math.round(memory / rule.memory_step_mib) * rule.memory_step_mib;
  return { vcpus: v, memory: Math.min(Math.max(rounded, min), max), extended: ext };
}

function sharedCoreShape(
  series: string,
  info: MachineSeries,
  rule: CustomMachineRule,
  size: string,
  memory: number,
  extended: boolean,
): MachineResult {
  const sizes = rule.shared_core ?? {};
  const sc = sizes[size];
  if (!sc) {
    const known = Object.keys(sizes).map((s) => `${rule.prefix}-${s}-…`);
    return unknownType(
      `${series} has no custom '${size}' size; ${known.length ? `shared-core custom types: ${known.join(', ')}` : 'it has no shared-core custom types'}`,
    );
  }
  const { min, max } = sc.memory_mib;
  const step = rule.memory_step_mib;
  const fix = `${rule.prefix}-${size}-${Math.min(Math.max(Math.round(memory / step) * step, min), max)}`;
  if (extended || memory % step !== 0 || memory < min || memory > max) {
    return unknownType(
      `${rule.prefix}-${size} takes ${min} to ${max} MiB in multiples of ${step}${extended ? ' and no -ext' : ''}, not ${memory}${extended ? '-ext' : ''}`,
      fix,
    );
  }
  const vcpus = info.shapes?.[sc.as];
  if (vcpus === undefined) return unknownType(`${rule.prefix}-${size} stands for ${sc.as}, which the catalog does not list`);
  const name = `${rule.prefix}-${size}-${memory}`;
  return { ok: true, machine: { series, vcpus, name, info, limits_as: sc.as, custom: { memory_mib: memory, extended: false } } };
}

export function runValues(runs: VcpuRun[]): number[] {
  const out: number[] = [];
  for (const r of runs) for (let v = r.min; v <= r.max; v += r.step) out.push(v);
  return out;
}

function inRuns(runs: VcpuRun[], v: number): boolean {
  return runs.some((r) => v >= r.min && v <= r.max && (v - r.min) % r.step === 0);
}

/** "1, then 2 to 96 in steps of 2": the rule as Google states it. */
export function describeRuns(runs: VcpuRun[]): string {
  return runs
    .map((r) => (r.min === r.max ? `${r.min}` : `${r.min} to ${r.max}${r.step > 1 ? ` in steps of ${r.step}` : ''}`))
    .join(', then ');
}

/** The value of `list` closest to `v`; on a tie the larger one, which gives at least what was asked. */
export function nearest(list: number[], v: number): number {
  return list.reduce((best, x) =>
    Math.abs(x - v) < Math.abs(best - v) || (Math.abs(x - v) === Math.abs(best - v) && x > best) ? x : best,
  );
}

// ---- choices --------------------------------------------------------------------------------------------

/** All vCPU counts a series offers as predefined types, ascending. */
export function vcpuChoices(info: MachineSeries): number[] {
  const all = new Set<number>(info.vcpus ?? []);
  for (const list of Object.values(info.families ?? {})) for (const v of list) all.add(v);
  return [...all].sort((a, b) => a - b);
}

/** Every predefined machine type name of the catalog (plain, suffixed and named shapes), for completion and did-you-mean. */
export function machineTypeNames(c: Catalog): Array<{ name: string; vcpus: number }> {
  const out: Array<{ name: string; vcpus: number }> = [];
  for (const [s, info] of Object.entries(c.machine_series)) {
    for (const [fam, list] of Object.entries(info.families ?? {})) for (const v of list) out.push({ name: `${s}-${fam}-${v}`, vcpus: v });
    for (const [sx, def] of Object.entries(info.suffixes ?? {}))
      for (const [fam, list] of Object.entries(def.families)) for (const v of list) out.push({ name: `${s}-${fam}-${v}-${sx}`, vcpus: v });
    for (const [shape, v] of Object.entries(info.shapes ?? {})) out.push({ name: shape, vcpus: v });
  }
  return out;
}

/** Machine data that does not hold together: a local SSD entry or a shared-core size naming no machine of its series. */
export function machineDataProblems(c: Catalog): Array<{ path: string; message: string }> {
  const out: Array<{ path: string; message: string }> = [];
  for (const [series, info] of Object.entries(c.machine_series)) {
    (info.fixed_local_ssd ?? []).forEach((t, i) => {
      for (const name of Object.keys(t.counts)) {
        const r = resolveMachineType(c, name);
        if (!r.ok || r.machine.series !== series)
          out.push({
            path: `/machine_series/${series}/fixed_local_ssd/${i}/counts/${name}`,
            message: `'${name}' is not a ${series} machine type`,
          });
      }
    });
    for (const [size, sc] of Object.entries(info.custom?.shared_core ?? {}))
      if (info.shapes?.[sc.as] === undefined)
        out.push({ path: `/machine_series/${series}/custom/shared_core/${size}/as`, message: `'${sc.as}' is not a ${series} shape` });
  }
  return out;
}

/** Whether the machine attaches a disk type: its series lists the type, and the machine meets the type's conditions there. */
export function attaches(m: Machine, type: string): boolean {
  if (m.info.disk_types && !m.info.disk_types.includes(type)) return false;
  const c = m.info.disk_type_conditions?.[type];
  return !c || ((c.min_vcpus === undefined || m.vcpus >= c.min_vcpus) && (!c.machine_types || c.machine_types.includes(m.name)));
}
