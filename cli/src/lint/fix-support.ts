/**
 * What `lint --fix` decides between rounds: which fixes a round applies, whether it made things worse, how many
 * findings a report stands for, and whether a file's bytes are UTF-8.
 */
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import type { TextEdit } from '../../../core/src';
import type { FileStamp } from '../../../protocol/src/file-write';

/** One quick fix's edits, and what it is: a design change (of the machine, disks or workloads) or a correction. */
export interface FixGroup {
  edits: TextEdit[];
  title: string;
  design: boolean;
}
/**
 * The fixes one round applies: the corrections, all of them; where none is left, one design change alone. A design
 * change's title says what the file then costs, from the text it was offered on: applied with nothing else, that
 * is what the file holds after it (and a change that another makes moot, a size for a type being switched, is
 * asked for again on the changed text, where it is gone).
 */
export function roundOf(groups: FixGroup[]): FixGroup[] {
  const corrections = groups.filter((g) => !g.design);
  return corrections.length ? corrections : groups.slice(0, 1);
}

/** A target as read: its text, the stamp of the file read, and where its bytes stop being UTF-8 (if they do). */
export interface Read {
  text: string;
  stamp?: FileStamp;
  badByte?: number;
}

/** The offset of the first byte that is not UTF-8 (decoding replaced it), or undefined when all are. */
export function firstInvalidByte(bytes: Buffer, text: string): number | undefined {
  if (!text.includes('\uFFFD')) return undefined;
  const again = Buffer.from(text, 'utf8');
  if (again.equals(bytes)) return undefined; // U+FFFD written as such
  let i = 0;
  while (i < bytes.length && bytes[i] === again[i]) i++;
  return i;
}

/** A document open in the server: its URI, version and latest diagnostics. */
export interface Doc {
  uri: string;
  version: number;
  diags: Diagnostic[];
}

export interface FixRun {
  current: string;
  rounds: number;
  converged: boolean;
  cycle: boolean;
  designChanges: string[];
}

/** How many findings diagnostics stand for: those listed, and those a `more-findings` counts. */
export function findingCount(diags: Diagnostic[]): number {
  let n = diags.length;
  for (const d of diags) {
    const m = String(d.code) === 'more-findings' ? /(\d[\d,]*)/.exec(typeof d.message === 'string' ? d.message : d.message.value) : null;
    if (m) n += Number(m[1].replace(/,/g, ''));
  }
  return n;
}

/** Whether `after` holds an error whose code `before` did not have at all. */
export function introducesErrors(before: Diagnostic[], after: Diagnostic[]): boolean {
  const had = new Set(before.map((d) => String(d.code)));
  return after.some((d) => (d.severity ?? 1) === 1 && !had.has(String(d.code)));
}
