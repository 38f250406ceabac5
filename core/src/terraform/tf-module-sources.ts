/**
 * Where a module call's files are, as Terraform finds them: a local source (`./x`, `../../modules/vm`) is a folder
 * relative to its caller's, wherever it is in the repository; any other source (a registry address, a git URL) is
 * the folder `terraform init` downloaded it to, which `.terraform/modules/modules.json` of the root module records
 * by the call's key (`web`, `web.child`). The reader of the files (protocol/src/module-sources.ts) says which
 * folders it read and which it refused; this module only joins paths and names, so the core stays pure.
 */
import type { Providers } from './tf-providers';

/** A module call's folder recorded by `terraform init`: its key's source and its folder (relative to the root module). */
export interface InstalledModule {
  source: string;
  dir: string;
}

/** What the reader of a module's files found about the folders module calls name. */
export interface ModuleDirs {
  /** `.terraform/modules/modules.json` of the root module, by key (`web`, `web.child`); none when it is not there. */
  installed?: ReadonlyMap<string, InstalledModule>;
  /** Folders (paths as the files' paths are) the reader refused, with why (outside the root, a link out of it). */
  refused?: ReadonlyMap<string, string>;
  /**
   * The folder of a local source as the reader found it, by `localKey(caller's folder, source)`: a path that leaves
   * the root module's folder and comes back into it (`../a` from `../b`) is that folder (''), which joining the
   * paths alone cannot tell.
   */
  local?: ReadonlyMap<string, string>;
}

/** The key of `ModuleDirs.local`: the calling module's folder and the source it writes. */
export const localKey = (from: string, source: string): string => `${from}\u0000${source}`;

/**
 * A module's folder joined with a local source (`./disk`, `../../modules/vm`): a path relative to the root module's
 * folder, `/`-separated, which may go above it (`../..`); '' is the root module's own folder.
 */
export function moduleFolder(from: string, source: string): string {
  const parts = from ? from.split('/') : [];
  for (const seg of source.split('/')) {
    if (seg === '.' || seg === '') continue;
    if (seg === '..' && parts.length && parts[parts.length - 1] !== '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/');
}

/** Whether a source is a local path, which Terraform reads in place (`./x`, `../x`). */
export const isLocalSource = (source: string): boolean => /^\.\.?\//.test(source);

/** The key `modules.json` gives a call: the names of the calls from the root module's, joined by dots. */
export const moduleKey = (configPrefix: string, name: string): string =>
  [...[...configPrefix.matchAll(/module\.([^.]+)\./g)].map((m) => m[1]), name].join('.');

/**
 * Whether a source written in a call is the one `terraform init` recorded: as written, or as Terraform records it
 * (a registry address with its host, `registry.terraform.io/ns/name/provider`; a GitHub or Bitbucket shorthand as
 * its git URL).
 */
export function sameSource(written: string, recorded: string): boolean {
  if (written === recorded) return true;
  const host = /^([a-z0-9-]+(?:\.[a-z0-9-]+)+)\/(.*)$/i.exec(recorded);
  if (host && host[2] === written && !/^(?:github\.com|bitbucket\.org)$/i.test(host[1])) return true;
  const short = /^(github\.com|bitbucket\.org)\/([^/?]+\/[^/?]+?)(?:\.git)?((?:\/\/[^?]*)?(?:\?.*)?)$/i.exec(written);
  return !!short && recorded === `git::https://${short[1]}/${short[2]}.git${short[3]}`;
}

/** A call's folder, or why its files are not read (with the code of the finding that says so). */
export type CallFolder = { folder: string } | { why: string; code: 'terraform-unknown-value' | 'terraform-file-refused' };

/**
 * The folder of the call `key` whose source is `source`, written in a module of folder `from`; `read` says whether
 * the reader has files of a folder.
 */
export function callFolder(from: string, source: string, key: string, dirs: ModuleDirs, read: (folder: string) => boolean): CallFolder {
  const refused = (folder: string): CallFolder | undefined => {
    const why = dirs.refused?.get(folder);
    return why === undefined ? undefined : { why: `${source} is refused: ${why}`, code: 'terraform-file-refused' };
  };
  if (isLocalSource(source)) {
    const folder = dirs.local?.get(localKey(from, source)) ?? moduleFolder(from, source);
    if (read(folder)) return { folder };
    return refused(folder) ?? { why: `${source} has no .tf file`, code: 'terraform-unknown-value' };
  }
  const got = dirs.installed?.get(key);
  const init = 'run `terraform init` in the root module, or run on the plan JSON';
  if (!got)
    return {
      why: `${source} is not downloaded (no module "${key}" in .terraform/modules/modules.json): ${init}`,
      code: 'terraform-unknown-value',
    };
  if (!sameSource(source, got.source))
    return {
      why: `${source} is not the source terraform init downloaded for "${key}" (${got.source}): ${init}`,
      code: 'terraform-unknown-value',
    };
  if (read(got.dir)) return { folder: got.dir };
  return refused(got.dir) ?? { why: `${source} has no .tf file in ${got.dir}: ${init}`, code: 'terraform-unknown-value' };
}

/** Where a module call is written: its module's folder, address and configuration prefix, depth and providers. */
export interface CallSite {
  folder: string;
  address: string;
  configPrefix: string;
  depth: number;
  providers: Providers;
  callers: string[];
}
