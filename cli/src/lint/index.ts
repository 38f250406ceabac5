/**
 * `storage-perf lint PATH...`: the headless CI linter. It finds exactly what the editor shows by starting the
 * language server and speaking LSP to it, and reports in the formats pipelines read.
 *
 * Exit codes (the contract): 0 no finding at or above --fail-on (and no more warnings than --max-warnings);
 * 1 otherwise; 2 usage, I/O or internal error, including a language server that crashes or does not answer.
 */
import { version } from '../version';
import { createTwoFilesPatch } from 'diff';
import type { ChildProcess } from 'node:child_process';
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { catalogFilesOf, loadRegistry, type CatalogFile } from '../catalog-file';
import { ServerFailure, type ClientOptions } from '../lsp-client';
import { parse, terraformVars, TERRAFORM_VAR_OPTIONS, UsageError } from '../args';
import { ioReason } from '../../../protocol/src/file-io';
import { writeAtomic } from '../../../protocol/src/file-write';
import { escapeData, oneLine } from '../workflow-text';
import { collectTargets, type Target } from './files';
import { colorWanted } from './formats/color';
import { FORMATS } from './formats/index';
import { placeOnTerraform } from './terraform-places';
import { lintAcross, Session } from './session';
import { resolveSettings } from './settings';
import { RANK, summarize, summaryLine, type LintResult, type Severity } from './types';
import type { FixType } from '../../../core/src';

/**
 * Files that keep a language server of their own busy long enough to repay starting it (about 150 ms of CPU):
 * a run of many files gets a server per this many files, at most one per two CPUs the process may use. A server
 * keeps a second CPU busy with its garbage collection and compilation: on two CPUs, a second server made 1,000
 * files slower, not faster (docs/performance.md).
 */
const FILES_PER_SERVER = 100;

export const LINT_USAGE = `usage: storage-perf lint PATH... [options]

PATH is a spec file, a Terraform plan (.json) or .tf file, a folder (searched for *.perf.yaml and *.perf.yml,
honouring .gitignore; a folder without them that holds .tf files is linted as that Terraform module) or - for
standard input.

options:
  -f, --format FORMAT       stylish (default), compact, json, sarif, github or junit
  -o, --output FILE         write the report to FILE; the summary line still goes to the terminal
      --fail-on SEVERITY    exit 1 on a finding at least this severe: error (default), warning, information
      --max-warnings N      exit 1 when there are more than N warnings
      --fix                 apply each finding's preferred quick fix of the --fix-type, re-linting until nothing changes
      --fix-dry-run         print the fixes as a diff and change nothing
      --force               --fix: replace a read-only file, and write a file with several hard links in place
                            (without it both are refused); -o: replace a read-only report
      --fix-type TYPES      which fixes --fix applies, comma-separated: problem (default: spellings and values
                            with one clear reading), sizing (design changes: machine, disk type, size, device
                            count; for a missed target the cheapest that meets it), workload (a workload's block
                            size or queue depth); each design change applied is printed with its cost
      --catalog EDITION     catalog edition for specs that name none (the editor's storagePerf.catalog)
      --region REGION       region for prices when a spec names none (storagePerf.region)
      --catalog-file PATH   a catalog of your own (storagePerf.catalogPath)
      --var-file FILE       Terraform: a file of the root module's variable values (any name; .json is JSON), after
                            terraform.tfvars and *.auto.tfvars beside the .tf files (may be repeated)
      --var NAME=VALUE      Terraform: a root module variable's value, after every file (may be repeated)
      --settings FILE       editor settings to start from, catalogPath included (default: .vscode/settings.json
                            when present, without its catalogPath: a repository does not pick the catalog)
      --follow-links        read a plan or module a file names, and a spec found in a folder, through links out
                            of its repository (refused by default: docs/robustness.md)
      --root DIR            Terraform: the folder module sources (and paths a file names) are read in, instead
                            of the repository the file is in; a source outside it is refused
      --stdin-filename NAME the name reports give to -
      --timeout SECONDS     how long to wait for each answer of the language server (default 60)
      --jobs N              language servers to lint with at once (default: one per ${FILES_PER_SERVER} files, at most
                            one per two CPUs)
      --docs-base-uri URI   SARIF: absolute URI of storage-perf's docs/ folder, for the rules' help links
  -h, --help                this text

advanced:
      --server-command CMD  start this language server instead (a command line, or a JSON array of arguments)

examples:
  storage-perf lint examples/
  storage-perf lint specs/ --fail-on warning -f sarif -o storage-perf.sarif
  storage-perf lint db.perf.yaml --fix-dry-run --fix-type problem,sizing

exit status: 0 no finding at or above --fail-on, 1 findings at or above it (or too many warnings),
2 usage, I/O or internal error (a language server that crashes or hangs included).`;

const FAIL_ON: Severity[] = ['error', 'warning', 'information'];

function serverCommand(spec: string): string[] {
  if (spec.trim().startsWith('[')) {
    let v: unknown;
    try {
      v = JSON.parse(spec);
    } catch {
      throw new UsageError('--server-command: not a JSON array of strings');
    }
    if (!Array.isArray(v) || !v.length || !v.every((x) => typeof x === 'string'))
      throw new UsageError('--server-command: not a JSON array of strings');
    return v as string[];
  }
  const parts = spec.trim().split(/\s+/).filter(Boolean);
  if (!parts.length) throw new UsageError('--server-command is empty');
  return parts;
}

function unifiedDiff(path: string, before: string, after: string): string {
  const name = escapeData(path);
  return createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after, '', '', { context: 3 }).replace(/^=+\n/, '');
}

/** A line on standard error: the names it holds escaped (%, CR, LF), so that it stays one line in a CI log. */
const err = (s: string) => process.stderr.write(`storage-perf lint: ${escapeData(s)}\n`);

const LINT_OPTIONS = {
  format: { type: 'string', short: 'f', default: 'stylish' },
  output: { type: 'string', short: 'o' },
  'fail-on': { type: 'string', default: 'error' },
  'max-warnings': { type: 'string' },
  fix: { type: 'boolean' },
  'fix-dry-run': { type: 'boolean' },
  force: { type: 'boolean' },
  'fix-type': { type: 'string', multiple: true },
  catalog: { type: 'string' },
  region: { type: 'string' },
  'catalog-file': { type: 'string' },
  ...TERRAFORM_VAR_OPTIONS,
  settings: { type: 'string' },
  'stdin-filename': { type: 'string' },
  timeout: { type: 'string', default: '60' },
  jobs: { type: 'string' },
  'docs-base-uri': { type: 'string' },
  'server-command': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type LintValues = ReturnType<typeof parse<typeof LINT_OPTIONS>>['values'];

/** The command line's choices, checked: every usage error is found before a file is read. */
interface LintOptions {
  format: string;
  formatter: (typeof FORMATS)[string];
  failOn: Severity;
  maxWarnings?: number;
  /** Seconds to wait for each answer of the server. */
  timeout: number;
  /** Language servers to run at once; undefined: chosen by the number of files. */
  jobs?: number;
  fixMode?: 'fix' | 'dry-run';
  fixTypes: FixType[];
  docsBaseUri?: string;
  /** The catalog file the run uses, if any (named in json and sarif). */
  catalogFiles?: CatalogFile[];
  output?: string;
  force: boolean;
  stdinName?: string;
}

function lintOptions(values: LintValues, positionals: string[]): LintOptions {
  const format = values.format as string;
  const formatter = FORMATS[format];
  if (!formatter) throw new UsageError(`unknown format '${format}' (${Object.keys(FORMATS).join(', ')})`);
  const failOn = values['fail-on'] as Severity;
  if (!FAIL_ON.includes(failOn)) throw new UsageError(`--fail-on must be one of ${FAIL_ON.join(', ')}, not '${failOn}'`);
  let maxWarnings: number | undefined;
  if (values['max-warnings'] !== undefined) {
    maxWarnings = Number(values['max-warnings']);
    if (!Number.isInteger(maxWarnings) || maxWarnings < 0)
      throw new UsageError(`--max-warnings takes a whole number ≥ 0, not '${values['max-warnings']}'`);
  }
  const timeout = Number(values.timeout);
  if (!(timeout > 0) || !Number.isFinite(timeout)) throw new UsageError(`--timeout takes a number of seconds > 0, not '${values.timeout}'`);
  let jobs: number | undefined;
  if (values.jobs !== undefined) {
    jobs = Number(values.jobs);
    if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError(`--jobs takes a whole number ≥ 1, not '${values.jobs}'`);
  }
  if (values.fix && values['fix-dry-run']) throw new UsageError('--fix and --fix-dry-run exclude each other');
  const fixMode = values.fix ? 'fix' : values['fix-dry-run'] ? 'dry-run' : undefined;
  const fixTypes = parseFixTypes(values['fix-type'] as string[] | undefined, fixMode);
  if (!positionals.length) throw new UsageError('no PATH given (a spec file, a folder, or - for standard input)');
  if (fixMode === 'fix' && positionals.includes('-'))
    throw new UsageError('--fix cannot write back to standard input; use --fix-dry-run to see the fixes');
  let docsBaseUri = values['docs-base-uri'] as string | undefined;
  if (docsBaseUri !== undefined) {
    try {
      docsBaseUri = new URL(docsBaseUri.endsWith('/') ? docsBaseUri : `${docsBaseUri}/`).href;
    } catch {
      throw new UsageError(`--docs-base-uri must be an absolute URI, not '${docsBaseUri}'`);
    }
  }
  return {
    format,
    formatter,
    failOn,
    maxWarnings,
    timeout,
    jobs,
    fixMode,
    fixTypes,
    docsBaseUri,
    output: values.output as string | undefined,
    force: values.force === true,
    stdinName: values['stdin-filename'] as string | undefined,
  };
}

/** `server`: the default language server, already started; it is used unless --server-command names another. */
export async function lintCommand(args: string[], server?: ChildProcess): Promise<number> {
  const { values, positionals } = parse(args, LINT_OPTIONS);
  if (values.help) {
    process.stdout.write(LINT_USAGE + '\n');
    return 0;
  }
  const opts = lintOptions(values, positionals);
  const cwd = process.cwd();
  const settings = resolveSettings(
    cwd,
    {
      catalog: values.catalog as string | undefined,
      region: values.region as string | undefined,
      catalogPath: values['catalog-file'] as string | undefined,
    },
    values.settings as string | undefined,
    (text) => process.stderr.write(`storage-perf lint: ${text}\n`),
  );
  const tf = terraformVars(values);
  if (tf.varFiles.length) settings.terraformVarFiles = tf.varFiles.map((f) => resolve(cwd, f));
  if (tf.vars.length) settings.terraformVars = tf.vars.map((v) => `${v.name}=${v.value}`);
  if (tf.followLinks) settings.followLinks = true;
  if (tf.root) settings.terraformRoot = tf.root;
  // A catalog the server could not load would change every finding: refuse it here, with the reasons.
  if (settings.catalogPath) opts.catalogFiles = catalogFilesOf(loadRegistry([settings.catalogPath]));

  const collected = collectTargets(positionals, cwd, opts.stdinName);
  const { problems, sidecarsWithModule } = collected;
  // A file reached twice (itself and a link to it) is fixed once: the second fix would find it changed on disk.
  const targets = opts.fixMode ? onePerFile(collected.targets) : collected.targets;
  if (sidecarsWithModule.length) settings.sidecarsWithModule = sidecarsWithModule;
  problems.forEach(err);
  if (!targets.length) return 2;
  let stdinText: string | undefined;
  if (targets.some((t) => !t.file)) {
    try {
      stdinText = readFileSync(0, 'utf8');
    } catch (e) {
      err(`cannot read standard input: ${ioReason(e)}`);
      return 2;
    }
  }

  // Whatever escapes (a stream failing after the server died, say) must end the run as an error, never with the
  // exit code of findings or of success.
  process.on('unhandledRejection', (e) => {
    err(`internal error: ${(e as Error)?.message ?? String(e)}`);
    process.exit(2);
  });
  // Node's timers hold at most 2^31-1 ms (about 24 days); a longer one would fire at once.
  const client: ClientOptions = { pull: true, settings: { ...settings }, timeoutMs: Math.min(opts.timeout * 1000, 2 ** 31 - 1), cwd };
  if (values['server-command']) client.command = serverCommand(values['server-command'] as string);
  // Never more servers than files: a server with none would only start and stop.
  const servers = Math.min(
    targets.length,
    opts.jobs ?? Math.max(1, Math.min(Math.floor(availableParallelism() / 2), Math.floor(targets.length / FILES_PER_SERVER))),
  );
  // The first server is the one already started (unless another command was named); the others start now.
  const sessions = Array.from(
    { length: servers },
    (_, i) =>
      new Session({
        client: { ...client, started: i === 0 && !client.command ? server : undefined },
        cwd,
        fix: opts.fixMode,
        fixTypes: opts.fixTypes,
        force: opts.force,
        followLinks: settings.followLinks === true,
        stdinText,
        stdinName: opts.stdinName,
      }),
  );
  const result = await runSessions(sessions, targets, opts.failOn);
  if (typeof result === 'number') return result;
  // Code scanning and pull-request annotations point at the .tf line a plan's finding comes from.
  const placedResult = opts.format === 'sarif' || opts.format === 'github' ? await placeOnTerraform(result, cwd) : result;
  if (!writeReport(placedResult, opts, cwd)) return 2;
  return exitStatus(result, opts, problems.length > 0);
}

/** Lints the files over the sessions' language servers: the result, or exit status 2 when a server failed. */
async function runSessions(sessions: Session[], targets: Target[], failOn: Severity): Promise<LintResult | number> {
  try {
    await Promise.all(sessions.map((s) => s.start()));
    const files = await lintAcross(sessions, targets);
    const serverError = sessions.map((s) => s.serverError()).find((e) => e !== undefined);
    await Promise.all(sessions.map((s) => s.stop()));
    if (serverError) {
      err(`the language server reported an error, so its findings cannot be trusted: ${serverError}`);
      return 2;
    }
    return { files, summary: summarize(files), failOn };
  } catch (e) {
    sessions.forEach((s) => s.abort());
    if (!(e instanceof ServerFailure)) throw e;
    // The words of the server that failed (the first that exited), else of the first.
    const failedOne = sessions.find((s) => s.serverFailure() !== undefined) ?? sessions[0];
    const tail = failedOne.client.stderr.trim().split('\n').slice(-10).join('\n');
    err(`${e.message}; no results`);
    // The server's own lines, each marked as its words: none can read as a workflow command.
    if (tail)
      process.stderr.write(
        `the server's last words:\n${tail
          .split('\n')
          .map((l) => `  | ${oneLine(l)}\n`)
          .join('')}`,
      );
    return 2;
  }
}

/** The targets with each file once: a link to a file that is itself a target is dropped. */
function onePerFile(targets: Target[]): Target[] {
  const info = targets.map((t) => {
    try {
      return t.file ? { real: realpathSync(t.file), link: lstatSync(t.file).isSymbolicLink() } : undefined;
    } catch {
      return undefined; // unreadable: its lint says why
    }
  });
  const direct = new Set(info.filter((x) => x && !x.link).map((x) => x!.real));
  const kept = new Set<string>();
  return targets.filter((_, i) => {
    const x = info[i];
    if (!x) return true;
    if ((x.link && direct.has(x.real)) || kept.has(x.real)) return false;
    kept.add(x.real);
    return true;
  });
}

const FIX_TYPES: FixType[] = ['problem', 'sizing', 'workload'];

/** --fix-type problem,sizing,workload (or repeated): which fixes to apply; corrections only by default. */
function parseFixTypes(given: string[] | undefined, fixMode: string | undefined): FixType[] {
  if (!given) return ['problem'];
  if (!fixMode) throw new UsageError('--fix-type goes with --fix or --fix-dry-run');
  const types = given.flatMap((g) => g.split(',')).map((t) => t.trim());
  const bad = types.find((t) => !FIX_TYPES.includes(t as FixType));
  if (bad !== undefined) throw new UsageError(`unknown fix type '${bad}' (problem, sizing or workload)`);
  return [...new Set(types)] as FixType[];
}

/** Every design change a fix made, with what it costs: said on the terminal, never only in the diff. */
function reportDesignChanges(result: LintResult, to: NodeJS.WritableStream): void {
  for (const f of result.files)
    for (const title of f.fix?.designChanges ?? []) to.write(`${escapeData(f.path)}: design change: ${oneLine(title)}\n`);
}

/** The report, to --output or standard output, and the summary line; false when --output cannot be written. */
function writeReport(result: LintResult, opts: LintOptions, cwd: string): boolean {
  const { output, fixMode } = opts;
  const { machine } = opts.formatter;
  if (fixMode === 'dry-run') {
    const diffs = result.files.filter((f) => f.fix).map((f) => unifiedDiff(f.path, f.fix!.before, f.fix!.after));
    // The diff must not corrupt a machine-readable report on standard output.
    const to = machine && !output ? process.stderr : process.stdout;
    if (diffs.length) to.write(diffs.join(''));
  }
  reportDesignChanges(result, machine && !output ? process.stderr : process.stdout);
  const text = opts.formatter.format(result, {
    cwd,
    version: version(),
    docsBaseUri: opts.docsBaseUri,
    catalogFiles: opts.catalogFiles,
    fixMode,
    color: !output && opts.format === 'stylish' && colorWanted(process.stdout),
  });
  if (output) {
    try {
      writeAtomic(resolve(cwd, output), text, { kind: 'generated', force: opts.force });
    } catch (e) {
      err(`cannot write ${output}: ${ioReason(e)}`);
      return false;
    }
    process.stdout.write(summaryLine(result.summary, fixMode) + '\n');
  } else {
    process.stdout.write(text);
    if (machine) process.stderr.write(summaryLine(result.summary, fixMode) + '\n');
  }
  return true;
}

/** The contract's exit status: 2 for a file that could not be linted or a path that named none, 1 for findings. */
function exitStatus(result: LintResult, opts: LintOptions, pathProblems: boolean): number {
  const fileErrors = result.files.filter((f) => f.error);
  fileErrors.forEach((f) => err(f.error!));
  if (fileErrors.length || pathProblems) return 2;
  const threshold = RANK[opts.failOn];
  if (result.files.some((f) => f.findings.some((x) => RANK[x.severity] >= threshold))) return 1;
  if (opts.maxWarnings !== undefined && result.summary.warnings > opts.maxWarnings) {
    err(`${result.summary.warnings} warnings, more than --max-warnings ${opts.maxWarnings}`);
    return 1;
  }
  return 0;
}
