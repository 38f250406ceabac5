/** The diff's summary line and its money, as every format says them. */
import { fmtMoney, plural } from '../units';
import type { DiffRecord, Money, MoneyChange } from './types';

/** How an item's change reads: `added`, `removed`, `changed`, or `not read at base` (only in the head, of a module the base could not read). */
export const changeText = (d: { change: string; base_unread?: string }): string =>
  d.base_unread !== undefined ? 'not read at base' : d.change;

/**
 * The module calls the base could not read, one line each ("the base at v1 could not read module.web: its version is
 * ...; its 2 VMs in the head are listed as "not read at base""): the head's VMs of them are not called added.
 */
export function unreadLines(r: Pick<DiffRecord, 'base' | 'vms'>): string[] {
  const at = r.base.ref !== undefined ? ` at ${r.base.ref}` : '';
  return (r.base.unread_modules ?? []).map((u) => {
    const n = r.vms.filter((v) => v.base_unread?.startsWith(`${u.module}: `)).length;
    const vms = !n ? '' : `; ${n === 1 ? 'its VM in the head is' : `its ${plural(n, 'VM')} in the head are`} listed as "not read at base"`;
    return `the base${at} could not read ${u.module}: ${u.why}${vms}`;
  });
}

/** "+$312.40", "-$12.00", "±$0.00", or "unknown" where a side that exists is not wholly priced. */
export function deltaText(m: MoneyChange, currency: string | null): string {
  if (m.delta === null) return 'unknown';
  const cur = currency ?? 'USD';
  if (m.delta === 0) return `±${fmtMoney(0, cur)}`;
  return m.delta > 0 ? `+${fmtMoney(m.delta, cur)}` : fmtMoney(m.delta, cur);
}

/** A side's price: "$85.00", "at least $85.00", "unknown", or "-" where the thing does not exist. */
export function moneyText(m: Money | null, currency: string | null): string {
  if (m === null) return '-';
  if (m.amount === null) return 'unknown';
  return `${m.complete ? '' : 'at least '}${fmtMoney(m.amount, currency ?? 'USD')}`;
}

/** What the two sides' prices lack, each phrase once. */
export function missingPrices(m: MoneyChange): string[] {
  return [...new Set([...(m.before?.missing ?? []), ...(m.after?.missing ?? [])])];
}

/** The disks attached to no VM that changed: "1 disk attached to no VM added", by kind of change. */
function unattachedParts(r: Omit<DiffRecord, 'summary'>): string[] {
  const out: string[] = [];
  for (const kind of ['added', 'removed', 'changed'] as const) {
    const n = r.unattached_disks.filter((d) => d.change === kind && d.base_unread === undefined).length;
    if (n) out.push(`${plural(n, 'disk')} attached to no VM ${kind}`);
  }
  const unread = r.unattached_disks.filter((d) => d.base_unread !== undefined).length;
  if (unread) out.push(`${plural(unread, 'disk')} attached to no VM not read at base`);
  return out;
}

/**
 * How many VMs of each kind, as `counts` has them: "2 VMs changed, 1 added, 1 removed" (changed: on both sides and
 * different), or "No VM changed" where only findings on no VM did.
 */
function vmCounts(c: DiffRecord['counts']): string {
  const kinds: Array<[number, string]> = [
    [c.vms_changed, 'changed'],
    [c.vms_added, 'added'],
    [c.vms_removed, 'removed'],
    [c.vms_base_unread, 'not read at base'],
  ];
  const said = kinds.filter(([n]) => n > 0).map(([n, kind], i) => (i ? `${n} ${kind}` : `${plural(n, 'VM')} ${kind}`));
  return said.join(', ') || 'No VM changed';
}

/** "1 VM changed, 1 added: 1 target now missed, +$312.40/month; 97 VMs unchanged". */
export function diffSummary(r: Omit<DiffRecord, 'summary'>): string {
  const c = r.counts;
  const touched = c.vms_changed + c.vms_added + c.vms_removed + c.vms_base_unread;
  const unchanged = `${plural(c.vms_unchanged, 'VM')} unchanged`;
  // A file the change adds or deletes says so first: all its VMs are added or removed.
  const file = !r.base.exists ? 'New file, ' : !r.head.exists ? 'Deleted file, ' : '';
  if (!file && !touched && !r.findings.appeared.length && !r.findings.gone.length && !r.unattached_disks.length)
    return `No change in figures, targets, cost or findings (${unchanged})`;
  const head = file + (file && !touched ? 'no VM' : vmCounts(c));
  const parts: string[] = unattachedParts(r);
  if (c.targets_now_missed) parts.push(`${plural(c.targets_now_missed, 'target')} now missed`);
  if (c.targets_now_met) parts.push(`${plural(c.targets_now_met, 'target')} now met`);
  if (c.errors_appeared) parts.push(`${plural(c.errors_appeared, 'new error')}`);
  const others = c.findings_appeared - c.errors_appeared;
  if (others) parts.push(`${plural(others, 'new finding')} below error`);
  if (c.findings_gone) parts.push(`${plural(c.findings_gone, 'finding')} gone`);
  const d = r.monthly_cost;
  const missing = missingPrices(d);
  parts.push(
    d.delta === null
      ? `monthly cost change unknown${missing.length ? ` (${missing.join('; ')})` : ''}`
      : `${deltaText(d, r.currency)}/month`,
  );
  return `${head}: ${parts.join(', ')}; ${unchanged}`;
}
