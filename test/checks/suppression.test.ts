/** Inline suppression comments: what they silence, what they do not, and unknown codes as findings. */
import * as assert from 'node:assert/strict';
import { analyze, applySuppressions, DIAGNOSTIC_CODES, findSuppressions, type Diagnostic } from '../../core/src';
import { BASE } from './helpers';

// Two warnings on separate lines: capped-by-vcpu on machine_type, not-applicable on count.
const SPEC = BASE + '        count: 2\n';

const codes = (text: string) =>
  analyze(text)
    .diagnostics.map((d) => d.code)
    .sort();
const insertBefore = (text: string, needle: string, line: string) => text.replace(needle, `${line}\n${needle}`);

describe('suppression comments', () => {
  it('the spec used here has both warnings to begin with', () => {
    assert.deepEqual(codes(SPEC), ['capped-by-vcpu', 'not-applicable']);
  });

  it('disable-next-line silences the named code on the next line only', () => {
    const text = insertBefore(SPEC, '    machine_type:', '    # storage-perf-disable-next-line capped-by-vcpu -- the standby takes reads');
    assert.deepEqual(codes(text), ['not-applicable']);
  });

  it('disable-next-line does not silence other codes on that line', () => {
    const text = insertBefore(SPEC, '    machine_type:', '    # storage-perf-disable-next-line not-applicable');
    assert.deepEqual(codes(text), ['capped-by-vcpu', 'not-applicable']);
  });

  it('disable-next-line skips blank and comment lines to the next content line', () => {
    const text = insertBefore(
      SPEC,
      '    machine_type:',
      '    # storage-perf-disable-next-line capped-by-vcpu\n\n    # why: the standby takes reads',
    );
    assert.deepEqual(codes(text), ['not-applicable']);
  });

  it('several codes, comma- or space-separated, and a trailing comment form', () => {
    const one = insertBefore(SPEC, '        count: 2', '        # storage-perf-disable-next-line capped-by-vcpu, not-applicable');
    assert.deepEqual(codes(one), ['capped-by-vcpu']);
    const trailing = SPEC.replace('        size: 500GiB\n', '        size: 500GiB   # storage-perf-disable-next-line not-applicable\n');
    assert.deepEqual(codes(trailing), ['capped-by-vcpu']);
  });

  it('the file-level form silences a code wherever it is, from any line', () => {
    assert.deepEqual(codes(SPEC + '# storage-perf-disable capped-by-vcpu -- reviewed with the DBAs\n'), ['not-applicable']);
    assert.deepEqual(codes('# storage-perf-disable not-applicable capped-by-vcpu\n' + SPEC), []);
  });

  it('an unknown code is a finding on the code itself, with a suggestion', () => {
    const text = insertBefore(SPEC, '    machine_type:', '    # storage-perf-disable-next-line caped-by-vcpu -- typo');
    const a = analyze(text);
    const u = a.diagnostics.find((d) => d.code === 'unknown-suppression');
    assert.ok(u, JSON.stringify(a.diagnostics));
    assert.equal(text.slice(u.span.start, u.span.end), 'caped-by-vcpu');
    assert.equal(u.severity, 'warning');
    assert.match(u.message, /did you mean 'capped-by-vcpu'/);
    // and it suppresses nothing
    assert.ok(a.diagnostics.some((d) => d.code === 'capped-by-vcpu'));
  });

  it('a directive naming no code is a finding on the directive', () => {
    const text = SPEC + '# storage-perf-disable -- everything, please\n';
    const u = analyze(text).diagnostics.find((d) => d.code === 'unknown-suppression')!;
    assert.equal(text.slice(u.span.start, u.span.end), 'storage-perf-disable');
    assert.match(u.message, /names no diagnostic code/);
  });

  it('unknown-suppression is registered as a warning and can itself be suppressed', () => {
    assert.equal(DIAGNOSTIC_CODES['unknown-suppression'].severity, 'warning');
    const text =
      '# storage-perf-disable unknown-suppression\n' +
      insertBefore(SPEC, '    machine_type:', '    # storage-perf-disable-next-line nonsense');
    assert.deepEqual(codes(text), ['capped-by-vcpu', 'not-applicable']);
  });

  it('applies when analysis stops early (no provider): schema errors can be suppressed too', () => {
    const text = 'version: 1\n# storage-perf-disable-next-line unknown-key\nbogus: 1\nvms: []\n';
    const before = analyze(text.replace('# storage-perf-disable-next-line unknown-key\n', '')).diagnostics.map((d) => d.code);
    assert.ok(before.includes('unknown-key'), before.join());
    assert.ok(!codes(text).includes('unknown-key'));
  });

  it('look-alikes are not directives: inside quoted values, or other words', () => {
    const quoted = SPEC.replace('  - name: db', '  - name: "db # storage-perf-disable capped-by-vcpu"');
    assert.ok(codes(quoted).includes('capped-by-vcpu'));
    assert.deepEqual(findSuppressions('# storage-perf-disabled capped-by-vcpu\n# storage-perf-disable-next-lines x\n'), []);
  });

  it('parses codes, reason, kind and target line', () => {
    const [d] = findSuppressions('a: 1\n  # storage-perf-disable-next-line  x-y ,z -- because -- of this\n\nb: 2\n');
    assert.equal(d.kind, 'next-line');
    assert.deepEqual(
      d.codes.map((c) => c.code),
      ['x-y', 'z'],
    );
    assert.equal(d.reason, 'because -- of this');
    assert.equal(d.line, 1);
    assert.equal(d.target, 3);
  });

  it('is pure and cheap when there is nothing to do', () => {
    const diags: Diagnostic[] = [{ severity: 'warning', code: 'capped-by-vcpu', message: 'm', span: { start: 0, end: 1 } }];
    assert.equal(applySuppressions('version: 1\n', diags), diags);
  });

  it('stacked directives all cover the same next content line', () => {
    const text = insertBefore(
      SPEC,
      '        count: 2',
      '        # storage-perf-disable-next-line not-applicable -- one\n        # storage-perf-disable-next-line capped-by-vcpu -- two',
    );
    assert.deepEqual(
      findSuppressions(text).map((d) => d.target),
      [12, 12],
    );
    assert.deepEqual(codes(text), ['capped-by-vcpu']); // capped-by-vcpu is on machine_type, not on count
  });

  it('a next-line directive with nothing after it silences nothing and is not an error', () => {
    const text = SPEC + '# storage-perf-disable-next-line capped-by-vcpu\n\n';
    assert.equal(findSuppressions(text)[0].target, undefined);
    assert.deepEqual(codes(text), ['capped-by-vcpu', 'not-applicable']);
  });

  it('a directive silences only findings that start on its line, not ones that merely span it', () => {
    // The unknown key's finding starts on the key line: a directive aimed at the line after it does nothing.
    const text = SPEC.replace(
      '        count: 2\n',
      '        count: 2\n        # storage-perf-disable-next-line not-applicable\n        sise: 1\n',
    );
    assert.ok(codes(text).includes('not-applicable'));
  });

  it('handles CRLF line ends', () => {
    const text = insertBefore(SPEC, '    machine_type:', '    # storage-perf-disable-next-line capped-by-vcpu').replace(/\n/g, '\r\n');
    assert.deepEqual(codes(text), ['not-applicable']);
  });
});
