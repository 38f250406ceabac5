/**
 * The server's settings: those given at initialize, replaced by what workspace/configuration answers whenever
 * the client says they changed, and the catalog registry they imply (the built-in catalogs and the user's
 * catalog file). A catalog file that does not load is reported on the file itself.
 */
import { DiagnosticSeverity, type Connection, type InitializeParams } from 'vscode-languageserver/node';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CatalogRegistry, LineIndex, parseCatalogText, type CatalogFileProblem } from '../../core/src';
import { MAX_CATALOG_BYTES, readRegularFile } from '../../protocol/src/file-io';
import { SETTINGS_SECTION, type Settings } from '../../protocol/src/settings';
import { SOURCE } from './lsp-diagnostic';

export class ServerSettings {
  current: Settings = {};
  registry = new CatalogRegistry();
  /**
   * Bumped whenever settings are (re)loaded: the same document version may then have other diagnostics, so
   * it is part of the pull diagnostics' result id.
   */
  generation = 0;
  /** Settings from initializationOptions: the base under what workspace/configuration answers. */
  private initial: Settings = {};
  private workspaceFolder: string | undefined;

  /** The workspace folder (a file: URI's path), if the client named one. */
  get workspace(): string | undefined {
    return this.workspaceFolder;
  }
  private configurationRequests = false;
  /** The catalog file whose problems are published as diagnostics on it, to clear them when it is fixed. */
  private catalogProblemsUri: string | undefined;
  private readonly loadListeners: Array<() => void> = [];

  constructor(private readonly connection: Connection) {}

  /** Called at the end of every load, before anything else may use the new settings. */
  onDidLoad(listener: () => void): void {
    this.loadListeners.push(listener);
  }

  /** The start-up settings, the workspace folder, and whether the client answers workspace/configuration. */
  initialize(params: InitializeParams): void {
    this.configurationRequests = !!params.capabilities.workspace?.configuration;
    const init = params.initializationOptions as { settings?: Settings } | undefined;
    if (init?.settings) this.initial = { ...init.settings };
    this.current = { ...this.initial };
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    this.workspaceFolder = folder?.startsWith('file:') ? fileURLToPath(folder) : undefined;
  }

  /** Settings sent with workspace/didChangeConfiguration, when the client sends them there. */
  changed(sent: unknown): void {
    const s = (sent as Record<string, Settings | undefined> | undefined)?.[SETTINGS_SECTION];
    if (s && typeof s === 'object') this.current = { ...this.initial, ...s };
  }

  /** Asks the client for the settings (when it answers such requests), then loads the catalogs they name. */
  async load(): Promise<void> {
    if (this.configurationRequests) {
      try {
        // The answer replaces the settings (a key the client no longer sends is gone), over the start-up options.
        const s = (await this.connection.workspace.getConfiguration(SETTINGS_SECTION)) as Settings | null;
        if (s && typeof s === 'object') this.current = { ...this.initial, ...s };
      } catch (e) {
        this.connection.console.log(`workspace/configuration failed: ${(e as Error).message}`);
      }
    }
    this.registry = new CatalogRegistry();
    if (this.catalogProblemsUri) void this.connection.sendDiagnostics({ uri: this.catalogProblemsUri, diagnostics: [] });
    this.catalogProblemsUri = undefined;
    if (this.current.catalogPath) this.loadCatalog(this.resolveCatalogPath(this.current.catalogPath));
    this.generation++;
    this.loadListeners.forEach((l) => l());
  }

  /**
   * A catalog path as VS Code users write it: `${workspaceFolder}` expanded, a relative path taken from the
   * workspace folder (as the linter does), not from wherever the server process happens to run.
   */
  private resolveCatalogPath(p: string): string {
    const folder = this.workspaceFolder;
    const expanded = folder ? p.replace(/\$\{workspaceFolder\}/g, folder) : p;
    return folder ? resolve(folder, expanded) : resolve(expanded);
  }

  private loadCatalog(catalogPath: string): void {
    const { connection } = this;
    try {
      const text = readRegularFile(catalogPath, MAX_CATALOG_BYTES);
      const { catalog, problems } = parseCatalogText(text);
      if (catalog) this.registry.add(catalog);
      else {
        connection.window.showErrorMessage(
          `storage-perf: catalog ${catalogPath} is invalid: ${problems
            .slice(0, 3)
            .map((p) => `${p.line}:${p.column} ${p.path ? `${p.path} ` : ''}${p.message}`)
            .join('; ')}`,
        );
        this.publishCatalogProblems(catalogPath, text, problems);
      }
    } catch (e) {
      connection.window.showErrorMessage(`storage-perf: cannot load catalog ${catalogPath}: ${(e as Error).message}`);
    }
  }

  /** The problems also as diagnostics on the catalog file itself, so the editor shows each where it is. */
  private publishCatalogProblems(catalogPath: string, text: string, problems: CatalogFileProblem[]): void {
    const idx = new LineIndex(text);
    this.catalogProblemsUri = pathToFileURL(catalogPath).toString();
    void this.connection.sendDiagnostics({
      uri: this.catalogProblemsUri,
      diagnostics: problems.map((p) => ({
        range: idx.range(p.span),
        severity: DiagnosticSeverity.Error,
        source: SOURCE,
        code: 'invalid-catalog',
        message: p.path ? `${p.path}: ${p.message}` : p.message,
      })),
    });
  }
}
