/**
 * Text that CI runners read line by line. GitHub Actions takes a line of a step's output (standard output or
 * error) that starts with `::` as a workflow command (`::error file=…::…`, `::add-mask::…`), after leading spaces:
 * a file name or a spec's value holding a line break could start one. So every name the CLI prints goes through
 * `escapeData`, the runner's own escaping of a command's data (%, CR, LF → %25, %0D, %0A), and free text that may
 * quote a spec's values (a finding's message) through `oneLine` (line breaks only: messages hold `%` as a percent).
 * https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands
 */

/** The runner's escaping of a workflow command's data: %, CR and LF. */
export const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A workflow command's property value: its data escaping, and also : and ,. */
export const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** Free text on one line: CR and LF as the runner writes them, nothing else changed. */
export const oneLine = (s: string) => s.replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/**
 * Text of several lines, each kept (a catalog's problems, one a line), none able to start a workflow command: a
 * line that would begin with `::` (after spaces) has it written `%3A%3A`. For messages whose line breaks are their
 * own: a name in them that holds a line break cannot make a command of what follows it.
 */
export const commandSafe = (s: string) => s.replace(/\r/g, '%0D').replace(/^(\s*)::/gm, '$1%3A%3A');
