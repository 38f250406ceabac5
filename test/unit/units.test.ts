import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { fmt, fmtMoney, gbpsToMibps, parseBlockSize, parseSize, parseThroughput, sizeText, targetVerdict } from '../../core/src';

const ok = (r: ReturnType<typeof parseSize>) => {
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.value;
};
const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9 * Math.max(1, Math.abs(b)), `${a} != ${b}`);

describe('units', () => {
  it('sizes: binary units are exact, decimal units convert, a bare number is GiB', () => {
    assert.equal(ok(parseSize('500GiB')), 500);
    assert.equal(ok(parseSize('500 GiB')), 500);
    assert.equal(ok(parseSize('2TiB')), 2048);
    assert.equal(ok(parseSize('2tib')), 2048);
    assert.equal(ok(parseSize(750)), 750);
    assert.equal(ok(parseSize('750')), 750);
    close(ok(parseSize('500GB')), 500e9 / 2 ** 30);
    close(ok(parseSize('1TB')), 1e12 / 2 ** 30);
    close(ok(parseSize('1.5TiB')), 1536);
  });
  it('numbers in messages: grouped by thousands, at most the digits asked, no trailing zeros', () => {
    assert.equal(fmt(15000), '15,000');
    assert.equal(fmt(82.44), '82.4');
    assert.equal(fmt(-1234567), '-1,234,567');
    assert.equal(fmt(-0), '0');
    assert.equal(fmt(-0.01), '0');
    assert.equal(fmt(1.5, 2), '1.5');
    assert.equal(fmt(1e21), '1e+21');
    // Whole numbers as en-US groups them, whatever digits are asked (none to round), up to 1e21.
    const grouped = (n: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(n);
    const whole = fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.double({ min: -1e20, max: 1e20, noNaN: true }).map(Math.trunc));
    fc.assert(
      fc.property(whole, fc.integer({ min: 0, max: 3 }), (n, digits) => fmt(n, digits) === (Object.is(n, -0) ? '0' : grouped(n))),
      { numRuns: 2000 },
    );
  });
  it('money: a symbol, grouped by thousands, always two decimals; no minus on what rounds to nothing', () => {
    assert.equal(fmtMoney(283.58456, 'USD'), '$283.58');
    assert.equal(fmtMoney(1234567.5, 'USD'), '$1,234,567.50');
    assert.equal(fmtMoney(-90.26, 'USD'), '-$90.26');
    assert.equal(fmtMoney(-0.001, 'USD'), '$0.00');
    assert.equal(fmtMoney(1200, 'RUB'), '₽1,200.00');
    // Rounded as toFixed rounds (the binary value: 1.005 is $1.00), the whole part grouped by threes.
    const written = (n: number) => {
      const [int, cents] = Math.abs(n).toFixed(2).split('.');
      return `${n <= -0.005 ? '-' : ''}$${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
    };
    fc.assert(
      fc.property(fc.double({ min: -1e15, max: 1e15, noNaN: true }), (n) => fmtMoney(n, 'USD') === written(n)),
      { numRuns: 2000 },
    );
  });
  it('sizes in messages: spaced, grouped, at most one decimal; whole TiB as TiB', () => {
    assert.equal(sizeText(1611.7641), '1,611.8 GiB');
    assert.equal(sizeText(500), '500 GiB');
    assert.equal(sizeText(2048), '2 TiB');
    assert.equal(sizeText(465.66128730773926), '465.7 GiB');
  });
  it('sizes: bad input is refused with a message', () => {
    for (const bad of ['500 GiBs', '-5GB', 'fast', '', '5 PB', null, {}, -3, Infinity]) {
      const r = parseSize(bad);
      assert.equal(r.ok, false, `accepted ${String(bad)}`);
    }
    const r = parseSize('-5GB');
    assert.ok(!r.ok && /negative/.test(r.message));
  });
  it('throughput: MiB/s exact; MB/s, GB/s decimal; Mbps and Gbps are bits', () => {
    assert.equal(ok(parseThroughput('400MiB/s')), 400);
    assert.equal(ok(parseThroughput('1GiB/s')), 1024);
    close(ok(parseThroughput('100MB/s')), 100e6 / 2 ** 20);
    close(ok(parseThroughput('1GB/s')), 1e9 / 2 ** 20);
    close(ok(parseThroughput('800Mbps')), 100e6 / 2 ** 20);
    close(ok(parseThroughput('10 Gbps')), 10e9 / 8 / 2 ** 20);
    assert.equal(ok(parseThroughput('0MB/s')), 0);
    assert.equal(ok(parseThroughput(250)), 250);
    assert.equal(parseThroughput('400MiB').ok, false);
  });
  it('throughput: in "…ps" spellings a capital B is bytes and a small b bits', () => {
    close(ok(parseThroughput('200MBps')), 200e6 / 2 ** 20);
    close(ok(parseThroughput('200 MBps')), 200e6 / 2 ** 20);
    close(ok(parseThroughput('1GBps')), 1e9 / 2 ** 20);
    assert.equal(ok(parseThroughput('200MiBps')), 200);
    close(ok(parseThroughput('200Mbps')), 200e6 / 8 / 2 ** 20);
    close(ok(parseThroughput('200Mbit/s')), 200e6 / 8 / 2 ** 20);
    close(ok(parseThroughput('2Gbit/s')), 2e9 / 8 / 2 ** 20);
    assert.equal(parseThroughput('200mibps').ok, false);
  });
  it('Google\'s "2 Gbit/s is equivalent to 238 MB/s" only holds in MiB/s', () => {
    assert.equal(Math.floor(gbpsToMibps(2)), 238);
    assert.notEqual(Math.floor(2e9 / 8 / 1e6), 238); // 250 decimal MB/s
  });
  it('block sizes: fio spellings (k, m binary), KiB, KB decimal, bare number = bytes', () => {
    assert.equal(ok(parseBlockSize('4k')), 4);
    assert.equal(ok(parseBlockSize('4K')), 4);
    assert.equal(ok(parseBlockSize('1m')), 1024);
    assert.equal(ok(parseBlockSize('256KiB')), 256);
    assert.equal(ok(parseBlockSize('8KiB')), 8);
    assert.equal(ok(parseBlockSize('4MiB')), 4096);
    assert.equal(ok(parseBlockSize(4096)), 4);
    assert.equal(ok(parseBlockSize('512')), 0.5);
    close(ok(parseBlockSize('4KB')), 4000 / 1024);
    assert.equal(parseBlockSize('4 parsecs').ok, false);
  });
  it('a missed target never reads as 0% or more: enough digits to show the shortfall', () => {
    // 15,000 of 15,001 IOPS: -0.0067%, which one decimal rounds to "0".
    assert.equal(targetVerdict(false, 15000 / 15001 - 1), 'missed (-0.01%)');
    // A report's headroom rounded to -0 before it was kept below zero: no "+0%".
    assert.equal(targetVerdict(false, -0), 'missed');
    assert.equal(targetVerdict(false, 0), 'missed');
    assert.equal(targetVerdict(false, -1e-9), 'missed (by under 0.01%)');
    assert.equal(targetVerdict(false, -0.12), 'missed (-12%)');
    assert.equal(targetVerdict(false, -0.0005), 'missed (-0.05%)');
    assert.equal(targetVerdict(true, 0.25), 'met (+25%)');
    assert.equal(targetVerdict(true, 0), 'met (+0%)');
    assert.equal(targetVerdict(undefined, 0.1), undefined);
  });
});
