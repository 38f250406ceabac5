/**
 * `storagePerf/diffWithBase`: an open spec against another text of it — its last committed version, which the
 * client reads from the editor's git — as `storage-perf diff` compares them (the core's `diffAnalyses`). The base
 * is analysed as the server analyses the document, with its evaluation cache: a VM the change left alone is
 * evaluated once and compared by its findings alone.
 */
import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { diffAnalyses, frontEndFor, isTerraformSourcePath, LineIndex, sidecarPlanPath, type Analysis } from '../../../core/src';
import { DiffWithBaseRequest, type DiffWithBaseParams, type DiffWithBaseResult } from '../../../protocol/src/requests';
import type { ServerContext } from '../context';
import { pathOf, specNameOf } from '../uri';

/** The open document's text and analysis. */
export interface HeadSide {
  text: string;
  analysis: Analysis;
}

/** Why a side has no spec to compare: its first error, with the line it is on. */
function notParsed(which: string, text: string, a: Analysis): string {
  const first = a.diagnostics.find((d) => d.severity === 'error');
  if (!first) return `${which} does not parse.`;
  const line = new LineIndex(text).position(first.span.start).line + 1;
  return `${which} does not parse: line ${line}: ${first.message} (${first.code})`;
}

/**
 * Why `base` (the text at `baseRef`) cannot be diffed against the open document here, or undefined. A spec read with
 * other files (a plan, .tf files, a workload sidecar's plan) is not diffed here: the other files would be read from
 * the disk, not as the commit has them.
 */
function unavailableFor(uri: string, head: HeadSide, base: { text: string; ref: string }): string | undefined {
  const path = pathOf(uri),
    name = specNameOf(uri);
  const whole = `run \`storage-perf diff --base-ref ${base.ref} ${name}\` for the whole change`;
  if (frontEndFor(path) || isTerraformSourcePath(path))
    return `${name} is Terraform, read with the files beside it as they are on the disk: ${whole}.`;
  if (sidecarPlanPath(head.text) !== undefined || sidecarPlanPath(base.text) !== undefined)
    return `${name} is a workload sidecar, whose plan is read from the disk, not as it was at ${base.ref}: ${whole}.`;
  if (!head.analysis.spec) return notParsed(`${name} as it is open`, head.text, head.analysis);
  return undefined;
}

/** A capped analysis says so with a more-findings finding; one without dropped nothing. */
const capped = (a: Analysis) => a.diagnostics.some((d) => d.code === 'more-findings');

/**
 * The diff of `base` (the text at `baseRef`) against the open document; `analyzeAll` analyses a text as the server
 * analyses the document, but keeps every finding (`allFindings`): the per-file cap is for display, and the
 * document's own analysis is compared only where it dropped none. The server's handler runs the same steps with
 * the analyses in slices (`diffWithBaseInSlices`).
 */
export function diffWithBase(
  uri: string,
  head: HeadSide,
  base: { text: string; ref: string },
  analyzeAll: (text: string) => Analysis,
): DiffWithBaseResult {
  const unavailable = unavailableFor(uri, head, base);
  if (unavailable) return { unavailable };
  const b = analyzeAll(base.text);
  if (!b.spec) return { unavailable: notParsed(`${specNameOf(uri)} at ${base.ref}`, base.text, b) };
  const h = capped(head.analysis) ? analyzeAll(head.text) : head.analysis;
  return { record: diffAnalyses({ analysis: b, path: pathOf(uri), ref: base.ref }, { analysis: h, path: pathOf(uri) }) };
}

/**
 * `diffWithBase` with the analyses run in slices between other requests (a base of 40,000 VMs takes seconds) and
 * memoised by their text (`AnalysedDocuments.analyzedTextInSlices`).
 */
export async function diffWithBaseInSlices(
  uri: string,
  head: HeadSide,
  base: { text: string; ref: string },
  analyzeAll: (text: string) => Promise<Analysis>,
): Promise<DiffWithBaseResult> {
  const unavailable = unavailableFor(uri, head, base);
  if (unavailable) return { unavailable };
  const b = await analyzeAll(base.text);
  if (!b.spec) return { unavailable: notParsed(`${specNameOf(uri)} at ${base.ref}`, base.text, b) };
  const h = capped(head.analysis) ? await analyzeAll(head.text) : head.analysis;
  return { record: diffAnalyses({ analysis: b, path: pathOf(uri), ref: base.ref }, { analysis: h, path: pathOf(uri) }) };
}

export function registerDiff({ connection, documents, lifecycle }: ServerContext): void {
  connection.onRequest<DiffWithBaseResult, unknown>(
    DiffWithBaseRequest,
    lifecycle.guardRequest<DiffWithBaseParams, Promise<DiffWithBaseResult>>(DiffWithBaseRequest, async (p) => {
      if (typeof p.baseText !== 'string' || typeof p.baseRef !== 'string')
        throw new ResponseError(ErrorCodes.InvalidParams, 'baseText and baseRef must be strings');
      // The document's own analysis in slices too; a newer text while it runs is the one compared.
      const entry = await documents.settled(p.uri);
      if (!entry) return { unavailable: `${specNameOf(p.uri)} is not open in the language server.` };
      const { text, analysis } = entry;
      return diffWithBaseInSlices(p.uri, { text, analysis }, { text: p.baseText, ref: p.baseRef }, (t) =>
        documents.analyzedTextInSlices(p.uri, t),
      );
    }),
  );
}
