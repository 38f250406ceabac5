/** The goals of docs/performance.md: what, ours, the peer (or the bound), their ratio, the goal and whether it is met. */
export interface Goal {
  what: string;
  ours: string;
  peer: string;
  ratio: string;
  goal: string;
  met: boolean;
}

/**
 * A goal of ours against a peer measured in the same run (`peer` a number: met when ours ÷ peer is at most
 * `limit`), or against a fixed bound (`peer` a unit such as 'ms' or 'MiB': met when ours is at most `limit`).
 */
export function goal(what: string, ours: number, peer: number | string, limit: number, wording: string): Goal {
  if (typeof peer === 'string')
    return { what, ours: `${ours.toFixed(0)} ${peer}`, peer: '-', ratio: '-', goal: wording, met: ours <= limit };
  const ratio = ours / peer;
  return {
    what,
    ours: `${ours.toFixed(0)} ms`,
    peer: `${peer.toFixed(0)} ms`,
    ratio: `${ratio.toFixed(2)}×`,
    goal: wording,
    met: limit === 1 ? ratio < 1 : ratio <= limit,
  };
}

export function goalTable(goals: Goal[]): string[] {
  return [
    '| what | ours | peer | ratio | goal | met? |',
    '|---|---|---|---|---|---|',
    ...goals.map((g) => `| ${g.what} | ${g.ours} | ${g.peer} | ${g.ratio} | ${g.goal} | ${g.met ? 'yes' : 'no'} |`),
  ];
}
