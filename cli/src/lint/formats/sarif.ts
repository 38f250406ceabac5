/**
 * `sarif`: SARIF 2.1.0, as GitHub code scanning reads it. One run; a rule per diagnostic code (all of the
 * registry, so rule indexes are stable), each with its summary and help; results with complete 1-based regions
 * (UTF-16 columns, end column just past the last character) and a partial fingerprint that survives lines
 * moving. Paths are relative to %SRCROOT%, the working directory the linter ran in.
 *
 * Help URIs: SARIF wants absolute URIs there, and this tool has no website of its own to point at. Each code
 * is documented in docs/lint.md (anchor = the code), so every rule's `helpUri` is BASE/lint.md#CODE, where
 * BASE is `--docs-base-uri` (the GitHub Action passes the action's own repository and ref, so the links work
 * in the code scanning UI). Without it the links are left out: a file URI into the installation would be a
 * local path that means nothing where the log is read. The help text names the file, for readers of any log.
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Log, ReportingDescriptor, Result, Run } from 'sarif';
import { DIAGNOSTIC_CODES, LineIndex } from '../../../../core/src';
import type { Finding, LintResult, Severity } from '../types';
import type { FormatContext } from './context';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
export const FINGERPRINT_KEY = 'storagePerfFinding/v1';

const LEVEL: Record<Severity, Result.level> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

/** `capped-by-vcpu` → `CappedByVcpu`: SARIF's rule name is an identifier-like word. */
const ruleName = (code: string) =>
  code
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

function rule(code: string, ctx: FormatContext): ReportingDescriptor {
  const info = DIAGNOSTIC_CODES[code];
  const summary = info?.summary ?? `Reported by the language server as '${code}'.`;
  const doc = `docs/lint.md#${code}`;
  const r: ReportingDescriptor = {
    id: code,
    name: ruleName(code),
    shortDescription: { text: summary },
    fullDescription: { text: summary },
    defaultConfiguration: { level: LEVEL[info?.severity ?? 'warning'] },
    help: {
      text: `${summary} See ${doc} in the storage-perf sources.`,
      markdown: `${summary}\n\nSee \`${doc}\` in the storage-perf sources.`,
    },
    properties: { tags: ['storage-perf', 'performance'], severity: info?.severity ?? 'warning' },
  };
  // Codes of another server (--server-command) are not documented here: no link rather than a dead one.
  if (info && ctx.docsBaseUri) r.helpUri = new URL(`lint.md#${encodeURIComponent(code)}`, ctx.docsBaseUri).href;
  return r;
}

/** The artifact's URI: relative (to %SRCROOT%) under the working directory, an absolute file URI elsewhere. */
function location(path: string): { uri: string; uriBaseId?: string } {
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) return { uri: pathToFileURL(path).href };
  if (path.startsWith('<')) return { uri: encodeURI(path.replace(/[<>]/g, '')) };
  return { uri: path.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

/**
 * A fingerprint that stays put when lines move: the code, the file, the text of the finding's first line and
 * its range within it (whitespace-trimmed), and which of identical such findings this is.
 */
function fingerprints(path: string, text: string, findings: Finding[]): string[] {
  const idx = new LineIndex(text);
  const count = new Map<string, number>();
  return findings.map((x) => {
    const l = x.range.start.line;
    const line = l < idx.lineCount ? text.slice(idx.lineStart(l), idx.lineEnd(l)) : '';
    const flagged =
      x.range.end.line === l ? line.slice(x.range.start.character, x.range.end.character) : line.slice(x.range.start.character);
    const base = [x.code, path, line.trim(), flagged.trim()].join('\u0000');
    const n = count.get(base) ?? 0;
    count.set(base, n + 1);
    return createHash('sha256').update(`${base}\u0000${n}`).digest('hex').slice(0, 32);
  });
}

function snippet(text: string, x: Finding): string | undefined {
  const idx = new LineIndex(text);
  const s = idx.offset(x.range.start);
  const e = idx.offset(x.range.end);
  return e > s ? text.slice(s, e) : undefined;
}

/** One artifact per file and one result per finding. */
function artifactsAndResults(result: LintResult, ruleIndex: Map<string, number>): Pick<Run, 'artifacts' | 'results'> {
  const artifacts: NonNullable<Run['artifacts']> = [];
  const results: Result[] = [];
  result.files.forEach((f, fileIndex) => {
    const loc = location(f.path);
    artifacts.push({
      location: { ...loc, index: fileIndex },
      mimeType: 'application/yaml',
      sourceLanguage: 'yaml',
      length: Buffer.byteLength(f.text, 'utf8'),
    });
    const prints = fingerprints(f.path, f.text, f.findings);
    f.findings.forEach((x, i) => {
      const text = snippet(f.text, x);
      results.push({
        ruleId: x.code,
        ruleIndex: ruleIndex.get(x.code)!,
        level: LEVEL[x.severity],
        kind: 'fail',
        message: { text: x.message },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { ...loc, index: fileIndex },
              region: {
                startLine: x.line,
                startColumn: x.column,
                endLine: x.endLine,
                endColumn: x.endColumn,
                ...(text !== undefined ? { snippet: { text } } : {}),
              },
            },
          },
        ],
        partialFingerprints: { [FINGERPRINT_KEY]: prints[i] },
        properties: { severity: x.severity },
      });
    });
  });
  return { artifacts, results };
}

export function sarif(result: LintResult, ctx: FormatContext): string {
  const codes = Object.keys(DIAGNOSTIC_CODES);
  for (const f of result.files) for (const x of f.findings) if (!codes.includes(x.code)) codes.push(x.code);
  const ruleIndex = new Map(codes.map((c, i) => [c, i]));
  const { artifacts, results } = artifactsAndResults(result, ruleIndex);
  const failures = result.files.filter((f) => f.error);
  const run: Run = {
    tool: {
      driver: {
        name: 'storage-perf',
        fullName: 'storage-perf lint',
        version: ctx.version,
        semanticVersion: ctx.version,
        ...(ctx.docsBaseUri ? { informationUri: new URL('lint.md', ctx.docsBaseUri).href } : {}),
        rules: codes.map((c) => rule(c, ctx)),
      },
    },
    originalUriBaseIds: {
      '%SRCROOT%': {
        uri: pathToFileURL(ctx.cwd).href.replace(/\/?$/, '/'),
        description: { text: 'The folder the linter ran in; result paths are relative to it.' },
      },
    },
    artifacts,
    results,
    columnKind: 'utf16CodeUnits',
    ...(ctx.catalogFiles?.length ? { properties: { catalogFiles: ctx.catalogFiles } } : {}),
    invocations: [
      {
        executionSuccessful: failures.length === 0,
        ...(failures.length
          ? {
              toolExecutionNotifications: failures.map((f) => ({
                level: 'error' as const,
                message: { text: f.error! },
                locations: [{ physicalLocation: { artifactLocation: location(f.path) } }],
              })),
            }
          : {}),
      },
    ],
  };
  const log: Log = { $schema: SARIF_SCHEMA, version: '2.1.0', runs: [run] };
  return JSON.stringify(log, null, 2) + '\n';
}
