/**
 * A spec's last committed version, read through the API of VS Code's built-in Git extension (`vscode.git`): the
 * extension runs no git of its own. Where there is none — the file is on no disk, in no repository, new since the
 * last commit, or the repository has no commit — the answer says why.
 */
import * as vscode from 'vscode';

// The part of the Git extension's API (version 1, its `git.d.ts`) used here.
interface GitCommit {
  hash: string;
}
interface GitRepositoryState {
  readonly HEAD: { readonly commit?: string } | undefined;
  readonly onDidChange: vscode.Event<void>;
}
interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: GitRepositoryState;
  getCommit(ref: string): Promise<GitCommit>;
  getObjectDetails(treeish: string, path: string): Promise<{ mode: string; object: string; size: number }>;
  show(ref: string, path: string): Promise<string>;
}
interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<'uninitialized' | 'initialized'>;
  readonly repositories: GitRepository[];
  readonly onDidOpenRepository: vscode.Event<GitRepository>;
  getRepository(uri: vscode.Uri): GitRepository | null;
  openRepository?(root: vscode.Uri): Promise<GitRepository | null>;
}
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** The committed text with the commit it is from, or why there is none. */
export type Committed = { text: string; commit: string } | { none: string };

/** How long the Git extension may take to scan the workspace for repositories before we say so. */
const SCAN_MS = 30_000;

const gitErrorCode = (e: unknown) => (e as { gitErrorCode?: string })?.gitErrorCode;
const gitMessage = (e: unknown) => {
  const err = e as { stderr?: string; message?: string };
  return (
    (err?.stderr ?? '')
      .trim()
      .split('\n')[0]
      .replace(/^fatal: /, '') ||
    err?.message ||
    String(e)
  );
};

export class GitBase implements vscode.Disposable {
  private api: Promise<GitApi | string> | undefined;
  /** The last text read per file, with the commit it was read at. */
  private readonly texts = new Map<string, { commit: string; text: string }>();
  private readonly watched = new Set<GitRepository>();
  private readonly heads = new Map<GitRepository, string | undefined>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a repository's HEAD moves to another commit (a commit, a checkout): the last version changed. */
  readonly onDidChangeHead = this.changed.event;

  /** The file's text at HEAD in its repository. */
  async committed(uri: vscode.Uri): Promise<Committed> {
    if (uri.scheme !== 'file') return { none: 'The spec is not a file on disk, so it has no committed version.' };
    const api = await (this.api ??= this.loadApi());
    if (typeof api === 'string') {
      this.api = undefined;
      return { none: api };
    }
    const folder = vscode.Uri.joinPath(uri, '..');
    const repo = api.getRepository(uri) ?? (await api.openRepository?.(folder)) ?? null;
    if (!repo) return { none: 'The spec is not in a git repository: there is no last commit to compare it with.' };
    this.watch(repo);
    const known = repo.state.HEAD?.commit;
    const kept = this.texts.get(uri.toString());
    if (known && kept?.commit === known) return { text: kept.text, commit: known };
    let commit: string;
    try {
      commit = (await repo.getCommit('HEAD')).hash;
    } catch (e) {
      return { none: `The repository has no commit yet (${gitMessage(e)}): there is nothing to compare the spec with.` };
    }
    try {
      await repo.getObjectDetails('HEAD', uri.fsPath);
    } catch (e) {
      if (gitErrorCode(e) === 'UnknownPath')
        return { none: `The spec is new: it is not in the last commit (${commit.slice(0, 7)}), so there is nothing to compare it with.` };
      return { none: `Cannot read the spec as the last commit has it: ${gitMessage(e)}` };
    }
    try {
      const text = await repo.show(commit, uri.fsPath);
      this.texts.set(uri.toString(), { commit, text });
      return { text, commit };
    } catch (e) {
      return { none: `Cannot read the spec as the last commit has it: ${gitMessage(e)}` };
    }
  }

  private async loadApi(): Promise<GitApi | string> {
    const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
    if (!ext) return 'The built-in Git extension is not available, so the last commit cannot be read.';
    const exports = ext.isActive ? ext.exports : await ext.activate();
    if (!exports?.enabled) return 'Git is turned off (the setting git.enabled), so the last commit cannot be read.';
    const api = exports.getAPI(1);
    if (api.state === 'initialized') return api;
    // The extension scans the workspace for repositories first: until then it knows none.
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        sub.dispose();
        resolve('The Git extension has not finished scanning the workspace for repositories: try again in a moment.');
      }, SCAN_MS);
      const sub = api.onDidChangeState((s) => {
        if (s !== 'initialized') return;
        clearTimeout(timer);
        sub.dispose();
        resolve(api);
      });
    });
  }

  private watch(repo: GitRepository): void {
    if (this.watched.has(repo) || [...this.watched].some((r) => r.rootUri.toString() === repo.rootUri.toString())) return;
    this.watched.add(repo);
    this.heads.set(repo, repo.state.HEAD?.commit);
    this.disposables.push(
      repo.state.onDidChange(() => {
        const now = repo.state.HEAD?.commit;
        if (now === this.heads.get(repo)) return;
        this.heads.set(repo, now);
        this.changed.fire();
      }),
    );
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.changed.dispose();
  }
}
