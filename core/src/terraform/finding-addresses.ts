/**
 * Findings on Terraform input name the resource they are about, and a resource with `count` or `for_each` is
 * said once per place: a CI user reads `google_compute_instance.db: ...` in every output format (the message
 * is what all of them show), and the three instances of one block written once are one finding
 * `google_compute_instance.node: ... (3 instances)`, not three alike.
 */
import type { Diagnostic } from '../diagnostics';
import type { ParsedSpec } from '../document/parse';
import { valueSpan } from '../document/yaml-tree';
import type { Span } from '../text';

/** A resource address with its instance keys, and the rest (an inline block: `.boot_disk`, `.disk[1]`). */
const ADDRESS = /^((?:module\.[\w-]+(?:\[(?:"(?:[^"\\]|\\.)*"|\d+)\])?\.)*[A-Za-z][\w-]*\.[\w-]+(?:\[(?:"(?:[^"\\]|\\.)*"|\d+)\])?)(.*)$/s;
const KEY = /\[(?:"(?:[^"\\]|\\.)*"|\d+)\]/g;

/** The address without the instance keys of its module calls and resource: the block it was written as. */
export function blockAddress(address: string): string {
  const m = ADDRESS.exec(address);
  return m ? m[1].replace(KEY, '') + m[2] : address;
}

interface Owner {
  name: string;
  span: Span;
}

/** The VMs and their disks of a Terraform front end's spec, innermost first for a span look-up. */
function owners(parsed: ParsedSpec): Owner[] {
  const out: Owner[] = [];
  (parsed.spec?.vms ?? []).forEach((vm, i) => {
    vm.disks.forEach((d, j) => {
      const span = valueSpan(parsed.tree, `/vms/${i}/disks/${j}`);
      if (span && d.name) out.push({ name: d.name, span });
    });
  });
  (parsed.spec?.vms ?? []).forEach((vm, i) => {
    const span = valueSpan(parsed.tree, `/vms/${i}`);
    if (span && vm.name) out.push({ name: vm.name, span });
  });
  return out;
}

/** The resource a finding is about: by its JSON pointer when it has one, else by where it is. */
function ownerOf(d: Diagnostic, parsed: ParsedSpec, all: Owner[]): string | undefined {
  const m = d.path && /^\/vms\/(\d+)(?:\/disks\/(\d+))?/.exec(d.path);
  if (m) {
    const vm = parsed.spec?.vms[Number(m[1])];
    const disk = m[2] === undefined ? undefined : vm?.disks[Number(m[2])];
    return disk?.name ?? vm?.name;
  }
  const inside = (s: Span) => d.span.start >= s.start && d.span.end <= s.end && s.end > s.start;
  return all.find((o) => inside(o.span))?.name;
}

/**
 * Each finding of a Terraform front end's analysis with its resource's address in front of its message (unless
 * the message names it already), then `mergeInstances`.
 */
export function nameResources(parsed: ParsedSpec, found: Diagnostic[]): Diagnostic[] {
  if (!parsed.terraform || !parsed.spec) return found;
  const all = owners(parsed);
  const named = found.map((d) => {
    const name = ownerOf(d, parsed, all);
    return name && !names(d.message, name) ? { ...d, message: `${name}: ${d.message}` } : d;
  });
  return mergeInstances(named, (d) => `${d.span.start}:${d.span.end}`);
}

/**
 * Whether a message names the resource already: its address, or another instance of the same block at its start
 * (the instances of a block share their places, so the owner found by place may be a sibling of the one meant).
 */
function names(message: string, name: string): boolean {
  if (message.includes(name)) return true;
  const said = ADDRESS.exec(message)?.[1];
  const own = ADDRESS.exec(name)?.[1];
  if (said === undefined || own === undefined) return false;
  // A module called several times is one text: the owner found by place may be another call's resource of the block.
  return blockAddress(said) === blockAddress(own) || inModule(said) === inModule(own);
}

/** A resource's block address within its module (`module.a[0].google_compute_disk.d` → `google_compute_disk.d`). */
const inModule = (address: string) => blockAddress(address).replace(/^(?:module\.[\w-]+\.)+/, '');

/**
 * An instance's key after a module call or a resource address (`module.db[0]`, `google_compute_disk.data["a"]`),
 * not the index of an inline block's name (`.disk[1]`): resource types have an underscore, block names need none.
 */
const INSTANCE_KEY =
  /((?:^|(?<=[\s('"(,]|\]\.|[\w-]\.))module\.[\w-]+|(?:^|(?<=[\s('"(,]|\]\.|module\.[\w-]+\.))[a-z][a-z0-9]*_[a-z0-9_]+\.[\w-]+)\[(?:"(?:[^"\\]|\\.)*"|\d+)\]/g;

/**
 * Findings at one place (`at`) that differ only by the instances of the resources they name (`x[0]: m`,
 * `x[1]: m`; `m, x[0].boot_disk`) as one: `x: m (2 instances)`, where the first of them was.
 */
export function mergeInstances<T extends { code: string; severity: string; message: string }>(found: T[], at: (x: T) => string): T[] {
  const groups = new Map<string, { first: T; count: number; message: string }>();
  const out: Array<T | string> = [];
  for (const d of found) {
    const message = d.message.replace(INSTANCE_KEY, '$1');
    if (message === d.message) {
      out.push(d);
      continue;
    }
    const key = `${at(d)}\u0000${d.code}\u0000${d.severity}\u0000${message}`;
    const g = groups.get(key);
    if (g) g.count++;
    else {
      groups.set(key, { first: d, count: 1, message });
      out.push(key);
    }
  }
  return out.map((x) => {
    if (typeof x !== 'string') return x;
    const g = groups.get(x)!;
    return g.count > 1 ? { ...g.first, message: `${g.message} (${g.count} instances)` } : g.first;
  });
}
