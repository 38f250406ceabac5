/**
 * A VM's shared limits said in words, for every front end alike (evaluate's text, the hover, the diff): one phrase
 * per limit, reads and writes said once where they share it at one value ("data and wal together ≤ 15,000 IOPS,
 * read and write; their targets ask 12,400").
 */
import { firstAndMore, fmt } from './units';

/** What a phrase needs of a shared limit: the report's fields or the model's (`metric`, `value`, `unit`, ...). */
export interface SharedLimitFacts {
  metric: string;
  value: number;
  unit: string;
  disks: readonly string[];
  demand: number;
  reached: boolean;
}

/** "a, b and c". */
export function namesText(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * One phrase per limit; read and write of the same disks, value and unit said as one. `brief`: more than two disks
 * are said as the first and a count (a finding's message stays short).
 */
export function sharedLimitPhrases(limits: readonly SharedLimitFacts[], brief = false): string[] {
  const groups = new Map<string, { first: SharedLimitFacts; dirs: string[]; demand: number; reached: boolean }>();
  for (const l of limits) {
    const kind = l.metric.endsWith('iops') ? 'iops' : 'mibps';
    const key = `${l.disks.join('\u0000')}\u0001${l.value}\u0001${l.unit}\u0001${kind}`;
    const dir = l.metric.startsWith('read') ? 'read' : 'write';
    const g = groups.get(key);
    if (!g) groups.set(key, { first: l, dirs: [dir], demand: l.demand, reached: l.reached });
    else {
      g.dirs.push(dir);
      g.demand = Math.max(g.demand, l.demand);
      g.reached ||= l.reached;
    }
  }
  return [...groups.values()].map(({ first, dirs, demand, reached }) => {
    // Asked more than the limit by less than the rounding shows: more digits, never "ask 4,590, more than 4,590".
    const askedText = reached && fmt(demand) === fmt(first.value) ? fmt(demand, 2) : fmt(demand);
    const asked = demand > 0 ? `; their targets ask ${askedText}${reached ? ', more than it' : ''}` : '';
    const value = fmt(first.value);
    const what =
      first.unit === 'IOPS'
        ? `≤ ${value} ${dirs.join(' and ')} IOPS`
        : first.unit === 'MiB/s'
          ? `≤ ${value} MiB/s of ${dirs.length > 1 ? 'reads and writes' : `${dirs[0]}s`}`
          : `write ≤ ${value} ${first.unit}`;
    // Brief: the names where they are short, else how many (a finding's message stays within its length).
    const all = namesText(first.disks);
    const names =
      !brief || all.length <= 40 ? all : first.disks.length > 2 ? firstAndMore([...first.disks], 'disk') : `${first.disks.length} disks`;
    const shortNames = brief && names.length > 40 ? `${first.disks.length} disks` : names;
    return `${shortNames} together ${what}${asked}`;
  });
}
