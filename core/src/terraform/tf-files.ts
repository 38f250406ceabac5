/**
 * The files of a Terraform module as the .tf front end reads them (./tf.ts): one text, each file's span in it.
 */
/** One Terraform file: its path relative to the root module's folder, `/`-separated. */
export interface TfFile {
  path: string;
  text: string;
  /**
   * A variable definitions file given by name (`-var-file`), whatever its name, and its syntax: Terraform takes any
   * name, and reads one ending in `.json` as JSON. Files without it are told by their names (`*.tfvars`).
   */
  vars?: 'hcl' | 'json';
}

/** Where one file's text sits in the analysed text. */
export interface TfSource {
  path: string;
  start: number;
  end: number;
  vars?: 'hcl' | 'json';
}

/** The text the files are analysed as: each file's text in order, a line break between two. */
export function joinTfFiles(files: TfFile[]): { text: string; sources: TfSource[] } {
  let at = 0;
  const sources = files.map((f) => {
    const s: TfSource = { path: f.path, start: at, end: at + f.text.length, ...(f.vars ? { vars: f.vars } : {}) };
    at = s.end + 1;
    return s;
  });
  return { text: files.map((f) => f.text).join('\n'), sources };
}

/** The folder a file is in ('' at the root). */
export const folderOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
