/**
 * How values are spelt in a job file: fio's sizes, block sizes, times and paths, section and file names, and
 * the comment lines around them. Spec text reaches the file only through these (safeName, fioPath, oneLine,
 * wrap, shellWord), so that no name from the spec can start a line, a section or an option of its own.
 */

export const GIB_KIB = 1024 * 1024;
export const MIB_KIB = 1024;

/** fio's sequential access patterns (the rest are random). */
export function isSequential(rw: string): boolean {
  return rw === 'read' || rw === 'write' || rw === 'rw';
}

/** fio sizes: binary k/m/g as fio reads them. */
export function formatKib(kib: number): string {
  const k = Math.max(1, Math.floor(kib));
  if (k % GIB_KIB === 0) return `${k / GIB_KIB}g`;
  if (k % MIB_KIB === 0) return `${k / MIB_KIB}m`;
  return `${k}k`;
}

/** fio block sizes, exact: whole m or k where they divide, else bytes (0.5 KiB is 512). */
export function fioBlock(kib: number): string {
  const bytes = Math.round(kib * 1024);
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)}m`;
  if (bytes % 1024 === 0) return `${bytes / 1024}k`;
  return String(bytes);
}

/** fio reads ':' in file and directory names as a list separator; escape it. */
export function fioPath(p: string): string {
  return p.replace(/\\/g, '\\\\').replace(/:/g, '\\:');
}

/** fio's times: whole seconds, else milliseconds (a fractional runtime is for short trials). */
export function fioTime(s: number): string {
  if (Number.isInteger(s)) return `${s}s`;
  return `${Math.max(1, Math.round(s * 1000))}ms`;
}

/** Durations for people, in the comments. */
export function fmtSeconds(s: number): string {
  if (s < 10) return `${+s.toFixed(s < 1 ? 2 : 1)} s`;
  const r = Math.round(s);
  if (r < 60) return `${r} s`;
  const h = Math.floor(r / 3600);
  const m = Math.floor((r % 3600) / 60);
  const sec = r % 60;
  return h ? `${h} h ${m} min` : `${m} min${sec ? ` ${sec} s` : ''}`;
}

/** Names as fio section names and file names: letters, digits, '_', '.', '-'. */
export function safeName(s: string): string {
  const n = s.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_');
  return n || '_';
}

/** Control characters as spaces: a line break in spec text would otherwise start a line of the job file. */
export function oneLine(s: string): string {
  return s.replace(/[\x00-\x1f\x7f]+/g, ' ');
}

/** A spec name in the suggested commands, quoted where the shell would split or expand it ('a b', '$(x)'). */
export function shellWord(s: string): string {
  const t = oneLine(s);
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(t) ? t : `'${t.replace(/'/g, `'\\''`)}'`;
}

/** A comment, wrapped to about 110 columns. */
export function wrap(text: string): string[] {
  const words = oneLine(text).split(' ');
  const lines: string[] = [];
  let cur = '#';
  for (const w of words) {
    if (cur.length + 1 + w.length > 112 && cur !== '#') {
      lines.push(cur);
      cur = '#  ';
    }
    cur += (cur.endsWith(' ') ? '' : ' ') + w;
  }
  lines.push(cur);
  return lines;
}
