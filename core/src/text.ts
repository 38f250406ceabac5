/** Offsets ↔ line/column for one text. Lines and characters are 0-based here; callers add 1 where a format wants it. */
export interface Position {
  line: number;
  character: number;
}
export interface Range {
  start: Position;
  end: Position;
}
/** A source span as offsets into the text, end-exclusive. */
export interface Span {
  start: number;
  end: number;
}

export class LineIndex {
  private readonly starts: number[];
  constructor(readonly text: string) {
    const starts = [0];
    if (!text.includes('\r')) {
      // Lines ended by LF alone (most texts): found by indexOf, several times faster than a loop over every
      // character on a spec of megabytes.
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    } else {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10) starts.push(i + 1);
        else if (c === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
      }
    }
    this.starts = starts;
  }
  get lineCount(): number {
    return this.starts.length;
  }

  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0,
      hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo] };
  }

  offset(pos: Position): number {
    if (pos.line < 0) return 0;
    if (pos.line >= this.starts.length) return this.text.length;
    return Math.min(this.starts[pos.line] + Math.max(0, pos.character), this.lineEnd(pos.line));
  }

  /** Offset of the end of a line's content (before its line break). */
  lineEnd(line: number): number {
    const next = line + 1 < this.starts.length ? this.starts[line + 1] : this.text.length;
    let end = next;
    while (end > this.starts[line] && (this.text.charCodeAt(end - 1) === 10 || this.text.charCodeAt(end - 1) === 13)) end--;
    return end;
  }

  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))];
  }

  range(span: Span): Range {
    return { start: this.position(span.start), end: this.position(span.end) };
  }
}

/**
 * The string as a copy of its own. V8 keeps a substring of 13 characters or more as a view into the string it
 * was cut from: a machine type parsed from a 600 KB document, kept in a cache across edits, kept that whole
 * version of the document alive, one version per VM edited (300 edits of a 20,000-line spec: +76 MiB of
 * document texts). Anything cut from a document and kept beyond its analysis goes through this. (Joining a
 * character makes V8 copy the characters into a flat string of their own; the slice then views that copy.)
 */
export function detached(s: string): string {
  return s.length < 13 ? s : (s + ' ').slice(0, -1);
}
