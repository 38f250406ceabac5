/** ANSI colours for terminal output, on only where they will be seen as colours. */

/** FORCE_COLOR (other than 0/false) forces colours, NO_COLOR (any value) forbids them; otherwise a terminal decides. */
export function colorWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (force === '0' || force === 'false') return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return !!stream.isTTY;
}

export interface Paint {
  red(s: string): string;
  yellow(s: string): string;
  blue(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
  underline(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;
const same = (s: string) => s;

export function paint(on: boolean): Paint {
  return on
    ? { red: wrap(31, 39), yellow: wrap(33, 39), blue: wrap(34, 39), dim: wrap(2, 22), bold: wrap(1, 22), underline: wrap(4, 24) }
    : { red: same, yellow: same, blue: same, dim: same, bold: same, underline: same };
}
