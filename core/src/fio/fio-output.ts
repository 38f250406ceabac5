/**
 * fio's output read back: the JSON of `--output-format=json` (fio 3.x, and 2.x's latency fields), found even
 * among fio's own message lines, reduced to one measurement per job with its clones (numjobs reported one by
 * one) summed. Lenient about what it does not need, strict only where it could not be fio output at all.
 */

/** One job of a fio run: its clones (numjobs without group_reporting) summed. */
export interface FioMeasurement {
  name: string;
  groupid?: number;
  /** fio entries merged into this one (clones reported one by one). */
  entries: number;
  /** fio's error number for the job; 0 when it ran cleanly. */
  error: number;
  failed: boolean;
  read_iops: number;
  write_iops: number;
  /** MiB/s (fio reports KiB/s). */
  read_mibps: number;
  write_mibps: number;
  /** Mean completion latency (fio's clat), milliseconds. */
  read_lat_ms?: number;
  write_lat_ms?: number;
  /**
   * 99th percentile completion latency, milliseconds. For a job reported clone by clone, the highest of the
   * clones' (percentiles do not add up; the highest is what the slowest clone's callers saw).
   */
  read_p99_ms?: number;
  write_p99_ms?: number;
  runtime_ms?: number;
  /** usr + sys CPU of the job's threads, percent. */
  cpu_pct?: number;
  /** The job's options as fio echoes them: the global section's, overridden by the job's own. */
  options: Record<string, string>;
}

export class FioResultError extends Error {}

/** Text of a fio run → its JSON value. Tolerates fio's own lines ("fio: ...") before or around the JSON. */
export function parseFioOutput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // fio prints errors to stdout when no --output is given: keep from the first line that opens the object.
    const m = /(^|\n)\{\s*\n/.exec(text);
    const end = text.lastIndexOf('}');
    if (!m || end < 0) throw new FioResultError('not fio JSON output (run fio with --output-format=json)');
    const body = text
      .slice(m.index + m[1].length, end + 1)
      .split('\n')
      .filter((l) => !/^fio: /.test(l))
      .join('\n');
    try {
      return JSON.parse(body);
    } catch (e) {
      throw new FioResultError(`not fio JSON output: ${(e as Error).message}`);
    }
  }
}

/** fio's JSON (3.x; 2.x latency fields too) → one measurement per job name and group. */
export function parseFioResult(json: unknown): FioMeasurement[] {
  if (!isObject(json)) throw new FioResultError('not fio JSON output: expected an object');
  const list = Array.isArray(json.jobs) ? json.jobs : Array.isArray(json.client_stats) ? json.client_stats : undefined;
  if (!list) throw new FioResultError('not fio JSON output: no "jobs" list');
  const global = stringMap(json['global options']);
  const byKey = new Map<string, Acc>();
  for (const raw of list) {
    if (!isObject(raw) || typeof raw.jobname !== 'string') continue;
    if (raw.jobname === 'All clients') continue; // client/server mode's aggregate
    const groupid = typeof raw.groupid === 'number' ? raw.groupid : undefined;
    const key = `${raw.jobname}\u0000${groupid ?? ''}`;
    let acc = byKey.get(key);
    if (!acc) {
      acc = newAcc(raw.jobname, groupid, { ...global, ...stringMap(raw['job options']) });
      byKey.set(key, acc);
    }
    add(acc, raw);
  }
  return [...byKey.values()].map(finish);
}

interface Side {
  iops: number;
  bytes_s: number;
  lat_weighted: number;
  lat_weight: number;
  p99?: number;
  runtime: number;
}
interface Acc {
  name: string;
  groupid?: number;
  options: Record<string, string>;
  entries: number;
  error: number;
  read: Side;
  write: Side;
  cpu: number[];
}

function newAcc(name: string, groupid: number | undefined, options: Record<string, string>): Acc {
  const side = (): Side => ({ iops: 0, bytes_s: 0, lat_weighted: 0, lat_weight: 0, runtime: 0 });
  return { name, groupid, options, entries: 0, error: 0, read: side(), write: side(), cpu: [] };
}

function add(acc: Acc, raw: Record<string, unknown>): void {
  acc.entries++;
  const err = num(raw.error);
  if (err && !acc.error) acc.error = err;
  for (const dir of ['read', 'write'] as const) {
    const s = raw[dir];
    if (!isObject(s)) continue;
    const side = acc[dir];
    const iops = num(s.iops) ?? 0;
    side.iops += iops;
    const bytes = num(s.bw_bytes) ?? (num(s.bw) !== undefined ? num(s.bw)! * 1024 : 0);
    side.bytes_s += bytes;
    const lat = latencyMs(s);
    const weight = num(s.total_ios) ?? iops;
    if (lat !== undefined && weight && weight > 0) {
      side.lat_weighted += lat * weight;
      side.lat_weight += weight;
    }
    const p99 = p99Ms(s);
    if (p99 !== undefined) side.p99 = Math.max(side.p99 ?? 0, p99);
    side.runtime = Math.max(side.runtime, num(s.runtime) ?? 0);
  }
  const usr = num(raw.usr_cpu);
  const sys = num(raw.sys_cpu);
  if (usr !== undefined || sys !== undefined) acc.cpu.push((usr ?? 0) + (sys ?? 0));
}

/** Mean completion latency: clat_ns (fio 3), clat in µs (fio 2), or total latency when clat is absent. */
function latencyMs(s: Record<string, unknown>): number | undefined {
  const mean = (o: unknown) => (isObject(o) ? num(o.mean) : undefined);
  const ns = mean(s.clat_ns) ?? mean(s.lat_ns);
  if (ns !== undefined) return ns / 1e6;
  const us = mean(s.clat) ?? mean(s.lat);
  return us !== undefined ? us / 1e3 : undefined;
}

/** fio's 99th percentile of completion latency: clat_ns.percentile (fio 3) or clat.percentile in µs (fio 2). */
function p99Ms(s: Record<string, unknown>): number | undefined {
  const at99 = (o: unknown) => (isObject(o) && isObject(o.percentile) ? num(o.percentile['99.000000']) : undefined);
  const ns = at99(s.clat_ns) ?? at99(s.lat_ns);
  if (ns !== undefined) return ns / 1e6;
  const us = at99(s.clat) ?? at99(s.lat);
  return us !== undefined ? us / 1e3 : undefined;
}

function finish(a: Acc): FioMeasurement {
  const mib = 1024 * 1024;
  const lat = (s: Side) => (s.lat_weight > 0 ? s.lat_weighted / s.lat_weight : undefined);
  const runtime = Math.max(a.read.runtime, a.write.runtime);
  const m: FioMeasurement = {
    name: a.name,
    groupid: a.groupid,
    entries: a.entries,
    error: a.error,
    failed: a.error !== 0,
    read_iops: a.read.iops,
    write_iops: a.write.iops,
    read_mibps: a.read.bytes_s / mib,
    write_mibps: a.write.bytes_s / mib,
    options: a.options,
  };
  const rl = lat(a.read);
  const wl = lat(a.write);
  if (rl !== undefined) m.read_lat_ms = rl;
  if (wl !== undefined) m.write_lat_ms = wl;
  // fio reports a percentile of 0 for a direction that did no I/O: only a measured one is kept.
  if (a.read.p99 && a.read.iops > 0) m.read_p99_ms = a.read.p99;
  if (a.write.p99 && a.write.iops > 0) m.write_p99_ms = a.write.p99;
  if (runtime > 0) m.runtime_ms = runtime;
  if (a.cpu.length) m.cpu_pct = a.cpu.reduce((s, x) => s + x, 0) / a.cpu.length;
  return m;
}

// ---- reading untyped JSON ----------------------------------------------------------------------------------

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(v)) return out;
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') out[k] = String(x);
  return out;
}
