/**
 * `npm run equivalence -- --base REF`: is this core equivalent to the one at REF? Both analyse the same inputs
 * (./inputs.ts: seeded fleets of every provider, 100,000 distinct VMs by default, then every example and fixture),
 * and what each shows a user (./outputs.ts: report, findings with their fixes' edits, inlay hints, hovers) is
 * compared byte for byte. REF is built in a temporary git worktree with this checkout's node_modules.
 *
 *   --base REF       compare with the core at REF (a branch, tag or commit that has this script)
 *   --write FILE     only record this core's digests, one JSON line per input
 *   --against FILE   compare with a record written by --write
 *   --dump NAME      print what this core shows for one input (a name a comparison printed)
 *   --vms N          VMs per edition (default 25000: 100,000 over the four editions); --per-file N (default 500)
 *   --seed S         the fleets' seed (default 1)
 *
 * Exit 0 when equivalent (or when only recording or dumping), 1 when an input differs, 2 on a usage error.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileInputs, fleetInputs, ROOT, type Input } from './inputs';
import { outputsOf, PARTS, recordOf, type RecordLine } from './outputs';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    write: { type: 'string' },
    against: { type: 'string' },
    dump: { type: 'string' },
    vms: { type: 'string', default: '25000' },
    'per-file': { type: 'string', default: '500' },
    seed: { type: 'string', default: '1' },
  },
});
const vms = Number(values.vms);
const perFile = Number(values['per-file']);
const seed = Number(values.seed);

function* inputs(): Generator<Input> {
  yield* fleetInputs(vms, perFile, seed);
  yield* fileInputs();
}

function record(): RecordLine[] {
  const out: RecordLine[] = [];
  for (const i of inputs()) out.push(recordOf(i.name, outputsOf(i.name, i.text)));
  return out;
}

const readRecord = (file: string): RecordLine[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RecordLine);

/** The inputs that differ, each with the parts that do; an input on one side only differs in every part. */
function differences(ours: RecordLine[], theirs: RecordLine[]): string[] {
  const other = new Map(theirs.map((r) => [r.input, r]));
  const out: string[] = [];
  for (const r of ours) {
    const t = other.get(r.input);
    other.delete(r.input);
    if (!t) out.push(`${r.input}: only in this core`);
    else {
      const parts = PARTS.filter((p) => r.parts[p] !== t.parts[p]);
      if (parts.length) out.push(`${r.input}: ${parts.join(', ')}`);
    }
  }
  for (const name of other.keys()) out.push(`${name}: only in the base`);
  return out;
}

/** A worktree of `ref` with this checkout's dependencies, built; removed by the function it returns. */
function buildBase(ref: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'storage-perf-equivalence-'));
  rmSync(dir, { recursive: true });
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { cwd: ROOT, stdio: 'inherit' });
  const remove = () => execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, stdio: 'inherit' });
  try {
    const lock = spawnSync('git', ['diff', '--quiet', ref, '--', 'package-lock.json'], { cwd: ROOT });
    if (lock.status !== 0) throw new Error(`${ref} has other dependencies (package-lock.json differs): compare by --write and --against`);
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { stdio: 'inherit' });
    if (!existsSync(join(dir, 'out/test/equivalence/run.js'))) throw new Error(`${ref} has no equivalence script`);
  } catch (e) {
    remove();
    throw e;
  }
  return { dir, remove };
}

function compare(ours: RecordLine[], theirs: RecordLine[], against: string): number {
  const diff = differences(ours, theirs);
  const fleetVms = vms * 4;
  if (!diff.length) {
    process.stdout.write(`equivalent to ${against} on ${ours.length} inputs (${fleetVms} generated VMs, then the examples and fixtures)\n`);
    return 0;
  }
  process.stdout.write(`${diff.length} of ${ours.length} inputs differ from ${against}:\n${diff.slice(0, 30).join('\n')}\n`);
  if (diff.length > 30) process.stdout.write(`… and ${diff.length - 30} more\n`);
  process.stdout.write(`See one with --dump NAME on each side.\n`);
  return 1;
}

function main(): number {
  if (values.dump) {
    const i = [...inputs()].find((x) => x.name === values.dump);
    if (!i) {
      process.stderr.write(`no input named ${values.dump}\n`);
      return 2;
    }
    const o = outputsOf(i.name, i.text);
    for (const p of PARTS) process.stdout.write(`=== ${p}\n${o[p]}\n`);
    return 0;
  }
  if (!values.write && !values.against && !values.base) {
    process.stderr.write('usage: npm run equivalence -- --base REF | --write FILE | --against FILE | --dump NAME\n');
    return 2;
  }
  const t0 = Date.now();
  const ours = record();
  process.stderr.write(`this core: ${ours.length} inputs in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  if (values.write) writeFileSync(values.write, ours.map((r) => JSON.stringify(r)).join('\n') + '\n');
  if (values.against) return compare(ours, readRecord(values.against), values.against);
  if (!values.base) return 0;
  const base = buildBase(values.base);
  try {
    const file = join(base.dir, 'equivalence.jsonl');
    const args = ['--write', file, '--vms', String(vms), '--per-file', String(perFile), '--seed', String(seed)];
    execFileSync(process.execPath, [join(base.dir, 'out/test/equivalence/run.js'), ...args], { stdio: 'inherit' });
    return compare(ours, readRecord(file), values.base);
  } finally {
    base.remove();
  }
}

process.exitCode = main();
