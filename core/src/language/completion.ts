/**
 * Completion of keys and values. Mid-edit text is often not valid YAML, so the context (which object the
 * cursor is in, which key it is a value of) is read from the lines and their indentation, not from a parse.
 */
import type { Analysis } from '../analyze';
import { builtinRegistry, DEFAULT_EDITION, machineTypeNames, vcpuChoices, type Catalog, type CatalogRegistry } from '../catalog';
import { LineIndex } from '../text';
import { sizeTier, tierUpgrades } from '../model/tiers';
import { fmt, plural } from '../units';
import { locate } from './locate';
import { enumAt, examplesAt, keysAt } from './schema-info';

export interface CompletionEntry {
  label: string;
  kind: 'key' | 'value' | 'unit';
  insertText: string;
  detail?: string;
  documentation?: string;
  /** Ordering among entries: lower first. */
  sort?: number;
  /** Offsets of the text the entry replaces (the partial word under the cursor). */
  replace: { start: number; end: number };
}

// dotAll: '.' must also take U+2028 and U+2029, which a line may hold (only CR and LF end lines here).
const LINE_RE = /^(\s*)(-\s+)?(.*)$/s;

interface LineInfo {
  indent: number;
  dash: number;
  keyCol: number;
  key?: string;
  nested: boolean;
  value?: string;
}

function lineInfo(line: string): LineInfo {
  const m = LINE_RE.exec(line)!;
  const indent = m[1].length;
  const dash = m[2] ? indent : -1;
  const keyCol = indent + (m[2]?.length ?? 0);
  const kv = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*?))?\s*(?:#.*)?$/.exec(m[3]);
  if (!kv) return { indent, dash, keyCol, nested: false };
  const value = kv[2] ?? '';
  return { indent, dash, keyCol, key: kv[1], value, nested: value === '' };
}

/** The schema path (list items as /0) of the object holding column `col` at line `line`. */
export function contextPath(lines: string[], line: number, col: number): string {
  const segs: string[] = [];
  let cur = col;
  for (let l = line - 1; l >= 0 && cur > 0; l--) {
    const raw = lines[l];
    if (!raw.trim() || raw.trim().startsWith('#')) continue;
    const info = lineInfo(raw);
    if (info.dash >= 0 && info.dash < cur) {
      segs.push('0');
      cur = info.dash;
      continue;
    }
    if (info.keyCol < cur && info.key && info.nested) {
      segs.push(info.key);
      cur = info.keyCol;
      continue;
    }
    if (info.indent < cur && info.dash < 0) cur = info.indent; // a sibling block above: keep climbing
  }
  return segs.length ? '/' + segs.reverse().join('/') : '';
}

/** Keys already written in the object that holds the cursor line (same indentation, same block). */
function siblingKeys(lines: string[], line: number, col: number): Set<string> {
  const keys = new Set<string>();
  const scan = (from: number, step: number) => {
    for (let l = from; l >= 0 && l < lines.length; l += step) {
      const raw = lines[l];
      if (!raw.trim() || raw.trim().startsWith('#')) continue;
      const info = lineInfo(raw);
      if (info.keyCol === col && info.key) keys.add(info.key);
      if (info.keyCol < col || (info.dash >= 0 && info.dash < col)) {
        if (step < 0 && info.dash >= 0 && info.keyCol === col && info.key) keys.add(info.key);
        break;
      }
    }
  };
  scan(line - 1, -1);
  scan(line + 1, 1);
  return keys;
}

function docProvider(text: string, a?: Analysis): { provider?: string; catalog?: string } {
  const provider = a?.spec?.provider || /^provider:\s*([\w-]+)/m.exec(text)?.[1];
  const catalog = a?.spec?.catalog || /^catalog:\s*([\w.-]+)/m.exec(text)?.[1];
  return { provider, catalog };
}

export function complete(text: string, offset: number, a?: Analysis, registry: CatalogRegistry = builtinRegistry): CompletionEntry[] {
  const idx = new LineIndex(text);
  const pos = idx.position(offset);
  // The same line breaks as LineIndex (a lone CR ends a line too), or pos.line names another line.
  const lines = text.split(/\r\n|\r|\n/);
  const lineText = (lines[pos.line] ?? '').slice(0, pos.character);
  const { provider, catalog: edition } = docProvider(text, a);
  const catalog: Catalog | undefined =
    (edition && registry.get(edition)) ||
    (provider ? (registry.get(DEFAULT_EDITION[provider] ?? '') ?? registry.defaultFor(provider)) : undefined);

  // "key: partial" → values for that key.
  const valueMatch = /^(\s*)(-\s+)?([A-Za-z_][\w-]*)\s*:\s+(\S*)$/.exec(lineText) ?? /^(\s*)(-\s+)?([A-Za-z_][\w-]*):()$/.exec(lineText);
  if (valueMatch) {
    const col = valueMatch[1].length + (valueMatch[2]?.length ?? 0);
    const key = valueMatch[3];
    const partial = valueMatch[4];
    const path = `${contextPath(lines, pos.line, col)}/${key}`;
    const replace = { start: offset - partial.length, end: offset };
    if (key === 'tier' && catalog)
      return tierChoices(catalog, offset, a, lines, pos.line).map((v, i) => ({
        ...v,
        kind: 'value',
        insertText: v.label,
        sort: i,
        replace,
      }));
    return valueCompletions(path, key, partial, replace, catalog, registry, provider, a, lines, pos.line).map((e) =>
      valueMatch[4] === '' && !lineText.endsWith(' ') ? { ...e, insertText: ` ${e.insertText}` } : e,
    );
  }
  // "  partial" or "  - partial" → keys of the object at this indentation.
  const keyMatch = /^(\s*)(-\s+)?([A-Za-z_]*)$/.exec(lineText);
  if (keyMatch) {
    const col = keyMatch[1].length + (keyMatch[2]?.length ?? 0);
    const partial = keyMatch[3];
    const path = contextPath(lines, pos.line, col);
    const present = siblingKeys(lines, pos.line, col);
    const replace = { start: offset - partial.length, end: offset };
    return keysAt(path)
      .filter((k) => !present.has(k.key) && forProvider(k.doc, provider, catalog))
      .map((k, i): CompletionEntry => ({
        label: k.key,
        kind: 'key',
        insertText: `${k.key}: `,
        detail: k.required ? 'required' : undefined,
        documentation: k.doc,
        sort: (k.required ? 0 : 100) + i,
        replace,
      }))
      .sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0));
  }
  return [];
}

function valueCompletions(
  path: string,
  key: string,
  partial: string,
  replace: { start: number; end: number },
  c: Catalog | undefined,
  registry: CatalogRegistry,
  provider: string | undefined,
  a: Analysis | undefined,
  lines: string[],
  line: number,
): CompletionEntry[] {
  const values = (list: Array<{ label: string; detail?: string; doc?: string }>): CompletionEntry[] =>
    list.map((v, i) => ({ label: v.label, kind: 'value', insertText: v.label, detail: v.detail, documentation: v.doc, sort: i, replace }));
  const number = /^[0-9]+(?:\.[0-9]+)?$/.exec(partial)?.[0];
  const units = (list: string[], what: string): CompletionEntry[] =>
    number
      ? list.map((u, i) => ({ label: `${number}${u}`, kind: 'unit', insertText: `${number}${u}`, detail: what, sort: i, replace }))
      : values(examplesAt(path).map((e) => ({ label: String(e) })));
  switch (key) {
    case 'provider':
      return values((enumAt(path) ?? ['gcp', 'yandex', 'aws']).map((p) => ({ label: p })));
    case 'catalog':
      return values(
        registry
          .editions()
          .filter((e) => !provider || registry.get(e)!.provider === provider)
          .map((e) => ({ label: e, detail: registry.get(e)!.title, doc: `as of ${registry.get(e)!.as_of}` })),
      );
    case 'region':
      return c ? values(c.regions.map((r) => ({ label: r, detail: r === c.default_region ? 'default' : undefined }))) : [];
    case 'type':
      if (path.includes('/disks/') && c) {
        return values(Object.entries(c.disk_types).map(([name, t]) => ({ label: name, detail: t.label, doc: diskTypeDoc(c, name) })));
      }
      return [];
    case 'series':
      return c ? values(Object.entries(c.machine_series).map(([s, info]) => ({ label: s, detail: info.label }))) : [];
    case 'vcpus': {
      const series = findSibling(lines, line, 'series');
      const info = series && c?.machine_series[series];
      return info ? values(vcpuChoices(info).map((v) => ({ label: String(v) }))) : [];
    }
    case 'machine_type':
      return c ? values(machineTypeChoices(c, partial)) : [];
    case 'size':
    case 'fio_size':
      return units(['GiB', 'TiB', 'GB', 'TB'], 'size');
    case 'other_egress':
    case 'provisioned_throughput':
    case 'throughput':
    case 'read_throughput':
    case 'write_throughput':
      return units(['MiB/s', 'MB/s', 'GiB/s', 'Gbps', 'Mbps'], 'throughput');
    case 'block_size':
      return number
        ? units(['k', 'KiB', 'm', 'MiB'], 'block size')
        : values(['4k', '8KiB', '16k', '64k', '256KiB', '1m', '4MiB'].map((b) => ({ label: b })));
    case 'disk': {
      const vm = a?.vms.find((v) => path.startsWith(v.spec.path + '/')) ?? undefined;
      const names = vm ? vm.spec.disks.map((d) => d.name) : diskNamesAbove(lines, line);
      return values(names.map((n) => ({ label: n })));
    }
  }
  const e = enumAt(path);
  if (e) return values(e.map((v) => ({ label: v })));
  return values(
    examplesAt(path)
      .filter((x) => typeof x !== 'object')
      .map((x) => ({ label: String(x) })),
  );
}

/** Machine types of the catalog that start with what the user typed (at most 500: the list is for picking, not browsing). */
function machineTypeChoices(c: Catalog, partial: string): Array<{ label: string; detail?: string }> {
  const p = partial.toLowerCase();
  return machineTypeNames(c)
    .filter((m) => m.name.toLowerCase().startsWith(p))
    .slice(0, 500)
    .map((m) => ({ label: m.name, detail: plural(m.vcpus, 'vCPU') }));
}

function diskTypeDoc(c: Catalog, name: string): string {
  const t = c.disk_types[name];
  if (t.model === 'scaled') {
    const r = t.rates;
    return `${r.read_iops_per_gib}/${r.write_iops_per_gib} IOPS and ${r.read_mibps_per_gib}/${r.write_mibps_per_gib} MiB/s per GiB${r.baseline_iops ? `, +${r.baseline_iops} IOPS / ${r.baseline_mibps} MiB/s baseline per VM` : ''}; up to ${t.disk_max.read_iops} IOPS (${c.edition})`;
  }
  if (t.model === 'allocation-units')
    return `per ${t.unit_gib} GiB unit: ${t.per_unit.read_iops}/${t.per_unit.write_iops} IOPS, ${t.per_unit.read_mibps}/${t.per_unit.write_mibps} MiB/s (${c.edition})`;
  if (t.model === 'devices') return `${t.device_gib} GiB devices; counts ${t.counts.join(', ')} (${c.edition})`;
  if (t.model === 'tiers') {
    const rows = t.tiers.rows;
    return `sold in tiers ${rows[0].name}-${rows[rows.length - 1].name} (${fmt(rows[0].size_gib)}-${fmt(rows[rows.length - 1].size_gib)} GiB): a size is rounded up to the next tier, whose IOPS and throughput it has (${c.edition})`;
  }
  return `provisioned performance (${c.edition})`;
}

function findSibling(lines: string[], line: number, key: string): string | undefined {
  for (let l = line - 1; l >= 0 && l >= line - 20; l--) {
    const m = new RegExp(`^\\s*(?:-\\s+)?${key}:\\s*([\\w.-]+)`).exec(lines[l]);
    if (m) return m[1];
    if (/^\s*-\s/.test(lines[l])) break;
  }
  return undefined;
}

/** Without a parse: the names of the list items under the nearest `disks:` block above the cursor's VM. */
function diskNamesAbove(lines: string[], line: number): string[] {
  let l = line - 1;
  while (l >= 0 && !/^\s*disks:\s*$/.test(lines[l])) l--;
  if (l < 0) return [];
  const blockIndent = lineInfo(lines[l]).keyCol;
  const out: string[] = [];
  for (let k = l + 1; k < lines.length; k++) {
    const raw = lines[k];
    if (!raw.trim() || raw.trim().startsWith('#')) continue;
    const info = lineInfo(raw);
    if (info.dash < 0 && info.keyCol <= blockIndent) break;
    if (info.key === 'name' && info.dash >= 0 && info.value) out.push(info.value);
  }
  return out;
}

/**
 * Performance tiers for a disk's `tier:`: those its size's own tier can be set to (Azure Premium SSD: P1-P40 up to
 * P50, ...) when the analysis has the disk, else every tier of its type that has tier rules.
 */
function tierChoices(
  c: Catalog,
  offset: number,
  a: Analysis | undefined,
  lines: string[],
  line: number,
): Array<{ label: string; detail?: string }> {
  // The disk under the cursor in the analysis (completion paths name every list item /0).
  const at = a && locate(a.parsed.tree, offset);
  const diskPath = at ? /^\/vms\/\d+\/disks\/\d+/.exec(at.path)?.[0] : undefined;
  const d = diskPath ? a!.vms.flatMap((v) => v.disks).find((x) => x.spec.path === diskPath) : undefined;
  const type = d?.typeName ?? findSibling(lines, line, 'type');
  const t = type ? c.disk_types[type] : undefined;
  if (!t || t.model !== 'tiers' || !t.tier_upgrades) return [];
  const own = d ? sizeTier(t, d.size_gib) : undefined;
  const rows = own ? tierUpgrades(t, own) : t.tiers.rows;
  return rows.map((r) => ({ label: r.name, detail: `${fmt(r.size_gib)} GiB tier: ${fmt(r.iops)} IOPS, ${fmt(r.mibps)} MiB/s` }));
}

/**
 * Whether a key applies to the spec's provider, as its schema documentation says: an `Azure:` key on Azure only,
 * a GCP persistent disk's replication on GCP only, a local-ssd key where the edition has local SSD. Without a
 * provider every key is offered.
 */
function forProvider(doc: string, provider: string | undefined, c: Catalog | undefined): boolean {
  if (!provider) return true;
  if (/^Azure\b/.test(doc)) return provider === 'azure';
  if (/^Replication of a GCP\b/.test(doc)) return provider === 'gcp';
  if (/\(`?local-ssd`? only\)/.test(doc)) return !c || 'local-ssd' in c.disk_types;
  return true;
}
