/**
 * Quantities as users write them. Everything is converted to one internal unit:
 * sizes to GiB, throughput to MiB/s, block sizes to KiB.
 *
 * Decimal units are decimal and binary units binary here, exactly as written by the user: "500GB" is
 * 465.66 GiB. (The providers' own tables are another matter — Google's "GB" means GiB; that is handled in
 * the catalogs, which are stored in binary units throughout.)
 */
import { withoutInheritance } from './own-keys';

/** A failed parse may name what the user probably meant (spellings to offer as fixes, never applied unasked). */
export type Parsed = { ok: true; value: number } | { ok: false; message: string; meant?: string[] };

const GIB = 2 ** 30;
const MIB = 2 ** 20;

const SIZE_UNITS: Record<string, number> = withoutInheritance({
  '': 1,
  gib: 1,
  gb: 1e9 / GIB,
  tib: 1024,
  tb: 1e12 / GIB,
});

const THROUGHPUT_UNITS: Record<string, number> = withoutInheritance({
  'mib/s': 1,
  'mb/s': 1e6 / MIB,
  'gib/s': 1024,
  'gb/s': 1e9 / MIB,
  mbps: 1e6 / 8 / MIB,
  gbps: 1e9 / 8 / MIB,
  'mbit/s': 1e6 / 8 / MIB,
  'gbit/s': 1e9 / 8 / MIB,
});

// Throughput units are read as written, because their case carries the meaning: a capital B is a byte and a
// small b a bit ("200MBps" is 200 megabytes per second, "800Mbps" 800 megabits), and M and G are capitals. A
// spelling whose case leaves the meaning open ("mbps", "mb/s") is refused, naming both readings.
const BYTES_PER_SECOND = /^([MG])(i?)B(?:\/s|ps)$/;
const BITS_PER_SECOND = /^([MG])(?:bps|bit\/s)$/;
function throughputFactor(unit: string): number | undefined {
  const bytes = BYTES_PER_SECOND.exec(unit);
  if (bytes) return THROUGHPUT_UNITS[`${bytes[1]}${bytes[2]}b/s`.toLowerCase()];
  const bits = BITS_PER_SECOND.exec(unit);
  if (bits) return THROUGHPUT_UNITS[`${bits[1]}bps`.toLowerCase()];
  return unit === '' ? 1 : undefined;
}

/** The spellings an ambiguous or miscased throughput unit may have meant. */
function throughputMeant(unit: string): string[] {
  const m = /^([mg])(i?)(b)(\/s|ps|it\/s)$/i.exec(unit);
  if (!m) return [];
  const prefix = m[1].toUpperCase();
  if (m[4].toLowerCase() === 'it/s') return [`${prefix}bit/s`];
  if (m[2]) return [`${prefix}iB/s`];
  return [`${prefix}B/s`, `${prefix}bps`];
}

// fio's spellings: k/m/g/t are binary (fio's default kb_base=1024); KiB/MiB explicit; KB/MB decimal.
// (G and T serve fio region sizes; block sizes are range-checked where they are read.)
const BLOCK_UNITS: Record<string, number> = withoutInheritance({
  '': 1 / 1024,
  b: 1 / 1024,
  k: 1,
  kib: 1,
  kb: 1000 / 1024,
  m: 1024,
  mib: 1024,
  mb: 1e6 / 1024,
  g: 1024 * 1024,
  gib: 1024 * 1024,
  gb: 1e9 / 1024,
  t: 1024 ** 3,
  tib: 1024 ** 3,
  tb: 1e12 / 1024,
});

const QUANTITY = /^\s*([0-9]+(?:\.[0-9]+)?|\.[0-9]+)\s*([A-Za-z/]*)\s*$/;

/** Units whose case means nothing (sizes, fio's block sizes): looked up in lower case. */
const caseBlind =
  (units: Record<string, number>) =>
  (unit: string): number | undefined =>
    units[unit.toLowerCase()];

function parseQuantity(input: unknown, factorOf: (unit: string) => number | undefined, what: string, spellings: string): Parsed {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, message: `${what} must be a finite number` };
    if (input < 0) return { ok: false, message: `${what} must not be negative` };
    return { ok: true, value: input * factorOf('')! };
  }
  if (typeof input !== 'string') return { ok: false, message: `${what} must be a number or a quantity like ${spellings}` };
  const m = QUANTITY.exec(input);
  if (!m) {
    if (/^\s*-/.test(input)) return { ok: false, message: `${what} must not be negative` };
    return { ok: false, message: `'${input}' is not a ${what}; write it like ${spellings}` };
  }
  const factor = factorOf(m[2]);
  if (factor === undefined) return { ok: false, message: `unknown unit '${m[2]}' for ${what}; use ${spellings}` };
  const value = Number(m[1]) * factor;
  if (!Number.isFinite(value)) return { ok: false, message: `${what} is too large` };
  return { ok: true, value };
}

/** Size → GiB. A bare number means GiB. */
export function parseSize(input: unknown): Parsed {
  return parseQuantity(input, caseBlind(SIZE_UNITS), 'size', '500GiB, 1TB, 2TiB or 500 (GiB)');
}

/** Throughput → MiB/s. A bare number means MiB/s. */
export function parseThroughput(input: unknown): Parsed {
  const spellings = '400MiB/s, 500MB/s, 1GiB/s, 10Gbps or 800Mbps';
  if (typeof input === 'string') {
    const m = QUANTITY.exec(input);
    if (m && throughputFactor(m[2]) === undefined) {
      const meant = throughputMeant(m[2]).map((u) => `${m[1]}${u}`);
      if (meant.length)
        return {
          ok: false,
          message: `'${m[2]}' has no single meaning here (a capital B is a byte, a small b a bit): write ${meant.join(' or ')}`,
          meant,
        };
    }
  }
  return parseQuantity(input, throughputFactor, 'throughput', spellings);
}

/** A share: "20%" or a fraction from 0 to 1 (0.2) → 0.2. */
export function parsePercent(input: unknown): Parsed {
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) return { ok: false, message: 'a percentage must be a finite number, at least 0' };
    if (input > 1)
      return { ok: false, message: `${input} is not a fraction from 0 to 1: write ${input}% or ${input / 100}`, meant: [`${input}%`] };
    return { ok: true, value: input };
  }
  const m = typeof input === 'string' ? /^\s*([0-9]+(?:\.[0-9]+)?)\s*%\s*$/.exec(input) : null;
  if (!m) return { ok: false, message: `'${String(input)}' is not a percentage; write it like 20% or 0.2` };
  return { ok: true, value: Number(m[1]) / 100 };
}

/** Block size → KiB. A bare number means bytes (as in fio). */
export function parseBlockSize(input: unknown): Parsed {
  return parseQuantity(input, caseBlind(BLOCK_UNITS), 'block size', '4k, 8KiB, 256KiB, 1m or 4096 (bytes)');
}

/** Gbit/s → MiB/s: 2 Gbit/s = 238.4 MiB/s, the figure Google's 2020 page calls "238 MB/s". */
export function gbpsToMibps(gbps: number): number {
  return (gbps * 1e9) / 8 / MIB;
}

export function formatSize(gib: number): string {
  if (gib >= 1024 && Number.isInteger(gib / 1024)) return `${gib / 1024}TiB`;
  return `${Number.isInteger(gib) ? gib : +gib.toFixed(2)}GiB`;
}

/**
 * A size for a message: "500 GiB", "1,611.8 GiB", "2 TiB" (whole TiB only), never more than one decimal.
 * `formatSize` is the spelling a fix writes into the spec.
 */
export function sizeText(gib: number): string {
  if (gib >= 1024 && Number.isInteger(gib / 1024)) return `${fmt(gib / 1024)} TiB`;
  return `${fmt(gib, Number.isInteger(gib) ? 0 : 1)} GiB`;
}

export function formatBlock(kib: number): string {
  if (kib >= 1024 && Number.isInteger(kib / 1024)) return `${kib / 1024}MiB`;
  if (kib < 1) return `${Math.round(kib * 1024)}B`;
  return `${+kib.toFixed(2)}KiB`;
}

/** Grouped integer or one-decimal number, for messages: 15,000 / 82.4. (Hand-rolled: Intl formatting is
 * slow enough to dominate evaluation, which formats every explanation.) */
export function fmt(n: number, digits = n >= 100 || Number.isInteger(n) ? 0 : 1): string {
  if (!Number.isFinite(n)) return String(n);
  // toFixed switches to exponent notation from 1e21, which the grouping below would mangle ("1e+,308").
  if (Math.abs(n) >= 1e21) return String(Number(n.toPrecision(3)));
  // A whole number (most figures, sizes and counts) has no fraction to round: its digits as they are, grouped.
  if (Number.isInteger(n)) return n < 0 ? `-${group(String(-n))}` : group(String(n));
  const fixed = Math.abs(n).toFixed(digits);
  const dot = fixed.indexOf('.');
  const int = dot < 0 ? fixed : fixed.slice(0, dot);
  let frac = dot < 0 ? '' : fixed.slice(dot + 1);
  while (frac.endsWith('0')) frac = frac.slice(0, -1);
  const sign = n < 0 && Number(fixed) !== 0 ? '-' : '';
  return `${sign}${group(int)}${frac ? '.' + frac : ''}`;
}

function group(int: string): string {
  if (int.length <= 3) return int;
  let out = int.slice(0, int.length % 3 || 3);
  for (let i = out.length; i < int.length; i += 3) out += ',' + int.slice(i, i + 3);
  return out;
}

export function fmtMoney(n: number, currency: string): string {
  const sym = currency === 'USD' ? '$' : currency === 'RUB' ? '₽' : `${currency} `;
  if (!Number.isFinite(n) || Math.abs(n) >= 1e21) return `${n < 0 ? '-' : ''}${sym}${fmt(Math.abs(n))}`;
  // Two decimals always (below 1e21): the cents are the last three characters, the point with them.
  const fixed = Math.abs(n).toFixed(2);
  const cents = fixed.length - 3;
  return `${n < 0 && Math.abs(n) >= 0.005 ? '-' : ''}${sym}${group(fixed.slice(0, cents))}${fixed.slice(cents)}`;
}

/** A unit price as the catalog states it, unrounded: $0.125, $0.031611, $0.10 (at most 10 significant digits). */
export function fmtUnitPrice(n: number, currency: string): string {
  // The prices are the catalogs' own, few and said again in every price's sentence: each written once.
  let byPrice = unitPrices.get(currency);
  if (!byPrice) unitPrices.set(currency, (byPrice = new Map()));
  let text = byPrice.get(n);
  if (text === undefined) {
    if (byPrice.size >= UNIT_PRICES_KEPT) byPrice.clear();
    byPrice.set(n, (text = writeUnitPrice(n, currency)));
  }
  return text;
}
const unitPrices = new Map<string, Map<number, string>>();
/** A user's catalog may hold any number of prices: the memo keeps at most this many of a currency. */
const UNIT_PRICES_KEPT = 4096;

function writeUnitPrice(n: number, currency: string): string {
  const sym = currency === 'USD' ? '$' : currency === 'RUB' ? '₽' : `${currency} `;
  const exact = String(Number(n.toPrecision(10)));
  // At least cents: $0.10, not $0.1.
  const dot = exact.indexOf('.');
  return `${sym}${dot < 0 ? `${exact}.00` : exact.length - dot === 2 ? `${exact}0` : exact}`;
}

/** "1 vCPU", "2 vCPUs", "1 disk": a count with its noun, singular for one. */
/**
 * Items for a message that must stay short: two in full, or the first and how many more ("data at 7,500 IOPS
 * and 4 more disks"). The hover and the report list them all.
 */
export function firstAndMore(items: string[], noun: string): string {
  return items.length <= 2 ? items.join(', ') : `${items[0]} and ${plural(items.length - 1, `more ${noun}`)}`;
}

export function plural(n: number, noun: string): string {
  return `${fmt(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * A monthly total said so that a partial sum never reads as the whole: "$138.00", "at least $138.00 (IOPS price
 * unknown in europe-west4)", or "unknown (...)" when no part of it is priced. `per` ("/month") goes after the amount.
 */
export function costText(monthly: number | undefined, complete: boolean, missing: readonly string[], currency: string, per = ''): string {
  const why = missing.length ? ` (${missing.join('; ')})` : '';
  if (monthly === undefined) return `unknown${why}`;
  return complete ? `${fmtMoney(monthly, currency)}${per}` : `at least ${fmtMoney(monthly, currency)}${per}${why}`;
}

/** A small unit price (per IOPS-month): enough digits to compare, e.g. $0.00567. */
export function fmtPrice(n: number, currency: string): string {
  const sym = currency === 'USD' ? '$' : currency === 'RUB' ? '₽' : `${currency} `;
  return `${sym}${n.toPrecision(3).replace(/e.*$/, '')}`;
}

/** Headroom as a signed percentage: 0.25 → "+25%", −0.12 → "-12%". */
export function fmtHeadroom(headroom: number): string {
  return `${headroom >= 0 ? '+' : ''}${fmt(headroom * 100)}%`;
}

/**
 * A shortfall as a percentage that never reads as zero or more: "-12%", "-0.01%" (missed by 1 of 15,001 IOPS), or
 * "by under 0.01%" when even two decimals would round it away; undefined when `headroom` is not below zero.
 */
function shortfallText(headroom: number): string | undefined {
  if (!(headroom < 0)) return undefined;
  const short = -headroom * 100;
  if (short >= 0.1) return `-${fmt(short)}%`;
  return Number(short.toFixed(2)) > 0 ? `-${fmt(short, 2)}%` : 'by under 0.01%';
}

/**
 * A workload against its target, said the same way in every view: "met (+25%)", "missed (-12%)"; undefined
 * when the workload has no target. A missed target never shows a percentage of zero or more.
 */
export function targetVerdict(meets: boolean | null | undefined, headroom: number | null | undefined): string | undefined {
  if (meets === undefined || meets === null) return undefined;
  if (!meets) {
    const short = headroom === undefined || headroom === null ? undefined : shortfallText(headroom);
    return short ? `missed (${short})` : 'missed';
  }
  return headroom === undefined || headroom === null ? 'met' : `met (${fmtHeadroom(headroom)})`;
}
