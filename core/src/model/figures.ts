/**
 * A disk's figures as one flat record: each figure a number on a field of its own name, the limit that sets it a
 * small code, and what explains it asked only when its sentence is read. An evaluation makes one such record per
 * disk (and one more for a disk a machine's limit holds), not an object per figure: a search evaluates thousands of
 * configurations and explains few of them.
 */

/** The `limited_by` vocabulary of the JSON report. */
export type LimitKind = 'size' | 'disk' | 'vm' | 'egress' | 'provisioned' | 'block_size' | 'mix' | 'queue_depth' | 'devices';

export const METRICS = ['read_iops', 'write_iops', 'read_mibps', 'write_mibps'] as const;
export type Metric = (typeof METRICS)[number];

/** A figure with the limit that sets it and a sentence naming the table (and edition) it comes from. */
export interface Bound {
  value: number;
  by: LimitKind;
  readonly why: string;
}

/** A disk's figures: the four every table states, and the small-write column where a type has one. */
export type FigureKey = Metric | 'write_iops_16k';

/**
 * What makes the sentence of a figure (the table and rule that give it), asked on read with the figure and its value.
 * One source may explain several figures of a disk (a disk's own figures share its type, size and catalog).
 */
export interface FigureSource {
  explainFigure(m: FigureKey, value: number): string;
}

/** The `limited_by` codes, in a fixed order: a figure's is kept as its index, four bits of `kinds`. */
const KINDS: readonly LimitKind[] = ['size', 'disk', 'vm', 'egress', 'provisioned', 'block_size', 'mix', 'queue_depth', 'devices'];
/** The figures in the order of their slots (four bits of `kinds` each, an index of `sources`). */
const FIGURE_KEYS: readonly FigureKey[] = ['read_iops', 'write_iops', 'read_mibps', 'write_mibps', 'write_iops_16k'];

// Switches, not look-ups in a record keyed by name nor `indexOf` in the lists above (twice as slow to set a figure,
// measured): every disk of every candidate a search evaluates sets its figures. Each gives the place in its list
// (test/unit/figures.test.ts reads every figure and every limit back).
function slotOf(m: FigureKey): number {
  switch (m) {
    case 'read_iops':
      return 0;
    case 'write_iops':
      return 1;
    case 'read_mibps':
      return 2;
    case 'write_mibps':
      return 3;
    default:
      return 4;
  }
}

function codeOf(by: LimitKind): number {
  switch (by) {
    case 'size':
      return 0;
    case 'disk':
      return 1;
    case 'vm':
      return 2;
    case 'egress':
      return 3;
    case 'provisioned':
      return 4;
    case 'block_size':
      return 5;
    case 'mix':
      return 6;
    case 'queue_depth':
      return 7;
    default:
      return 8;
  }
}

export class DiskFigures {
  // Assigned in the constructor, not declared with initializers (see ./types ExplainedBound): one shape for all.
  declare read_iops: number;
  declare write_iops: number;
  declare read_mibps: number;
  declare write_mibps: number;
  /** Undefined where the type's table has no small-write column. */
  declare write_iops_16k: number | undefined;
  /** Each figure's `limited_by` code (an index of KINDS), four bits a figure in the order of FIGURE_KEYS. */
  declare private kinds: number;
  /** What explains the figures a limit has not set: the disk's own type, size and catalog. */
  declare private readonly own: FigureSource;
  /** Each figure's source, in the order of FIGURE_KEYS, once a figure is set from another than `own` (none before). */
  declare private sources: FigureSource[] | undefined;

  constructor(own: FigureSource, sources?: FigureSource[]) {
    this.read_iops = 0;
    this.write_iops = 0;
    this.read_mibps = 0;
    this.write_mibps = 0;
    this.write_iops_16k = undefined;
    this.kinds = 0;
    this.own = own;
    this.sources = sources;
  }

  /** Sets figure `m` to `value`, set by `by`, explained by `source` (the record's own source where omitted). */
  set(m: FigureKey, value: number, by: LimitKind, source?: FigureSource): void {
    // Stored by name through a switch as well: `this[m] = value` was the slowest part of setting a figure.
    switch (m) {
      case 'read_iops':
        this.read_iops = value;
        break;
      case 'write_iops':
        this.write_iops = value;
        break;
      case 'read_mibps':
        this.read_mibps = value;
        break;
      case 'write_mibps':
        this.write_mibps = value;
        break;
      default:
        this.write_iops_16k = value;
    }
    const slot = slotOf(m);
    this.kinds = (this.kinds & ~(15 << (4 * slot))) | (codeOf(by) << (4 * slot));
    const s = source ?? this.own;
    if (s === this.own && !this.sources) return;
    (this.sources ??= [this.own, this.own, this.own, this.own, this.own])[slot] = s;
  }

  /** Sets figure `m` to a Bound's value and limit, explained by it. */
  setTo(m: FigureKey, b: Bound & FigureSource): void {
    this.set(m, b.value, b.by, b);
  }

  /** Leaves out the small-write column (a figure no reader then sees). */
  dropWriteIops16k(): void {
    this.write_iops_16k = undefined;
  }

  /** The limit that sets figure `m`. */
  by(m: FigureKey): LimitKind {
    return KINDS[(this.kinds >> (4 * slotOf(m))) & 15];
  }

  /** The sentence of figure `m`: which limit sets it, from which table; made each time it is read. */
  why(m: FigureKey): string {
    return this.sourceOf(m).explainFigure(m, this[m]!);
  }

  /** What explains figure `m`. */
  sourceOf(m: FigureKey): FigureSource {
    return this.sources ? this.sources[slotOf(m)] : this.own;
  }

  /** Figure `m` as a Bound (value, limit, sentence), for a reader that keeps it beside others (a workload's limits). */
  bound(m: FigureKey): Bound {
    return new FigureBound(this[m]!, this.by(m), this.sourceOf(m), m);
  }

  /** Each figure as its value, limit and sentence (what a figure says, not how it is kept). */
  toJSON(): Record<string, { value: number; by: LimitKind; why: string }> {
    const out: Record<string, { value: number; by: LimitKind; why: string }> = {};
    for (const m of FIGURE_KEYS) if (this[m] !== undefined) out[m] = { value: this[m], by: this.by(m), why: this.why(m) };
    return out;
  }

  /** A copy that a limit may then change, leaving this record as it is. */
  copy(): DiskFigures {
    const out = new DiskFigures(this.own, this.sources && [...this.sources]);
    out.read_iops = this.read_iops;
    out.write_iops = this.write_iops;
    out.read_mibps = this.read_mibps;
    out.write_mibps = this.write_mibps;
    out.write_iops_16k = this.write_iops_16k;
    out.kinds = this.kinds;
    return out;
  }
}

/** One figure of a record as it was when read, its sentence made on read. */
class FigureBound implements Bound {
  constructor(
    readonly value: number,
    readonly by: LimitKind,
    private readonly source: FigureSource,
    private readonly m: FigureKey,
  ) {}
  get why(): string {
    return this.source.explainFigure(this.m, this.value);
  }
}

/**
 * A record of figures each given as a Bound (a type whose figures are made seldom): each Bound explains its own.
 * The small-write column only where `write_iops_16k` is given.
 */
export function figuresOfBounds(b: Record<Metric, Bound & FigureSource> & { write_iops_16k?: Bound & FigureSource }): DiskFigures {
  const f = new DiskFigures(b.read_iops);
  f.set('read_iops', b.read_iops.value, b.read_iops.by);
  f.set('write_iops', b.write_iops.value, b.write_iops.by, b.write_iops);
  f.set('read_mibps', b.read_mibps.value, b.read_mibps.by, b.read_mibps);
  f.set('write_mibps', b.write_mibps.value, b.write_mibps.by, b.write_mibps);
  if (b.write_iops_16k) f.set('write_iops_16k', b.write_iops_16k.value, b.write_iops_16k.by, b.write_iops_16k);
  return f;
}
