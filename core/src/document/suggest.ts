/**
 * The word a misspelt one was probably meant to be: for unknown keys in a spec and unknown codes in
 * suppression comments.
 */

/**
 * The candidate closest to a misspelt word, if one is close enough and no other is as close: at most one edit in
 * a word of up to five letters, two in a longer one (two edits turn "mibps" into "iops", which is not what anyone
 * meant). When several are as close (network-sdd: network-ssd and network-hdd), none is: see `nearest`.
 */
export function suggest(word: string, candidates: string[]): string | undefined {
  const near = nearest(word, candidates);
  return near.length === 1 ? near[0] : undefined;
}

/** Every candidate at the least distance from the word, within the bound of `suggest`; ties are all offered. */
export function nearest(word: string, candidates: string[]): string[] {
  let best: string[] = [];
  let bestD = (word.length <= 5 ? 1 : 2) + 1;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = [c];
    } else if (d === bestD && !best.includes(c)) best.push(c);
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagPrev = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diagPrev + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagPrev = tmp;
    }
  }
  return prev[b.length];
}
