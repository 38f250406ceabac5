/**
 * The layering of storage-perf, checked by `npm run lint:code` (dependency-cruiser).
 *
 *   core/src      pure analysis, no I/O, no editor or LSP types
 *   protocol/src  what the server and the CLI share: request names/types, settings, node I/O helpers
 *   server/src    the language server: core + protocol
 *   cli/src       the command line: core + protocol; talks to the server as a separate process over LSP
 *   client/src    the VS Code extension: protocol, plus core's formatting helpers
 *
 * Every rule's comment is the reason for it: it is what a violation prints.
 * Type-only imports count (tsPreCompilationDeps): a type import still couples the layers at build time.
 */

/** A folder of the source tree, as a path regex that matches its files. */
const src = (folder) => `^${folder}/src/`;

/** The editor and LSP packages, resolved (node_modules/...) or not (a types-only package such as vscode). */
const EDITOR_AND_LSP = [
  '^(node_modules/)?(@types/)?vscode(/|$)',
  '^(node_modules/)?vscode-languageserver[^/]*(/|$)',
  '^(node_modules/)?vscode-languageclient(/|$)',
  '^(node_modules/)?vscode-jsonrpc(/|$)',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import cycle makes the modules in it one unit: none can be understood, tested or moved alone, and the ' +
        'order in which they initialise decides whether a value is still undefined when it is used. Move what both ' +
        'sides need to a module of its own, lower down.',
      from: {},
      to: { circular: true },
    },

    // core: pure analysis
    {
      name: 'core-is-pure',
      severity: 'error',
      comment:
        'core/src is the pure analysis: text in, figures and findings out. It must run in any host (language server, ' +
        'CLI, browser, tests) without a file system, a process or an editor, so it must not import Node built-ins ' +
        '(fs, path, child_process, node:*) nor vscode / vscode-languageserver*. Do the I/O in protocol/src or in the ' +
        'host and pass the data in.',
      from: { path: src('core') },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-no-editor-or-lsp',
      severity: 'error',
      comment:
        'core/src must not know about the editor or the protocol (vscode, vscode-languageserver*, vscode-jsonrpc): ' +
        'the server turns core results into LSP objects, so core stays usable by the CLI and by tests without them.',
      from: { path: src('core') },
      to: { path: EDITOR_AND_LSP },
    },
    {
      name: 'core-not-to-hosts',
      severity: 'error',
      comment:
        'core/src is the bottom layer: server, CLI, client and protocol depend on it, never the other way round ' +
        '(that would be a cycle between layers, and would drag the host into every user of core).',
      from: { path: src('core') },
      to: { path: ['^server/', '^cli/', '^client/', '^protocol/'] },
    },
    {
      name: 'model-not-to-advice-or-checks',
      severity: 'error',
      comment:
        'core/src/model computes figures only. Advice (the search for fixes) and checks (the findings) are built on ' +
        'the model; the model importing them would be a cycle in the design and would make every figure depend on ' +
        'the wording of findings. Pass what the model needs in, or move the shared piece into the model.',
      from: { path: '^core/src/model/' },
      to: { path: ['^core/src/advice/', '^core/src/checks/'] },
    },
    {
      name: 'checks-name-no-provider',
      severity: 'error',
      comment:
        'A check, advice or a language feature works for every provider: it reads the catalog and the model, never ' +
        "a provider's own module (a Terraform mapper, or a model module named for a provider). Name a model module " +
        'for what it models (tiers, the host cache), so that a new provider reuses every check.',
      from: { path: '^core/src/(checks|advice|language)/' },
      to: { path: ['^core/src/terraform/', '^core/src/[a-z-]+/(gcp|aws|azure|yandex|google|amazon|microsoft)[^/]*\\.ts$'] },
    },
    {
      name: 'only-catalog-imports-catalogs',
      severity: 'error',
      comment:
        'catalogs/*.json are data, loaded and validated in one place (core/src/catalog). Anyone else must go through ' +
        "the catalog module's API, so a catalog's shape can change without hunting for readers of the raw JSON.",
      from: { pathNot: '^core/src/catalog/' },
      to: { path: '^catalogs/.+\\.json$' },
    },

    // protocol: shared between server and CLI
    {
      name: 'protocol-not-to-hosts',
      severity: 'error',
      comment:
        'protocol/src is shared by the server, the CLI and the client: it may use core, but importing any of them ' +
        'would make the others depend on it (a cycle between layers).',
      from: { path: src('protocol') },
      to: { path: ['^server/', '^cli/', '^client/'] },
    },

    // server
    {
      name: 'server-not-to-cli-or-client',
      severity: 'error',
      comment:
        'The language server depends on core and protocol only: the CLI and the VS Code client are its clients, ' +
        'each in its own process. Put what both need in protocol/src.',
      from: { path: src('server') },
      to: { path: ['^cli/', '^client/'] },
    },

    // cli
    {
      name: 'cli-not-to-server',
      severity: 'error',
      comment:
        'The CLI talks to the language server over LSP, as a separate process: importing server code would run a ' +
        'second copy in-process and bypass the protocol that lint is meant to exercise. Shared names, types and ' +
        'helpers belong in protocol/src.',
      from: { path: src('cli') },
      to: { path: '^server/src/' },
    },
    {
      name: 'cli-not-to-client',
      severity: 'error',
      comment: 'The CLI runs without VS Code: it must not import the extension (client/src).',
      from: { path: src('cli') },
      to: { path: '^client/' },
    },

    // client
    {
      name: 'client-not-to-server-or-cli',
      severity: 'error',
      comment:
        'The VS Code extension starts the server as a process and speaks LSP to it; importing server or CLI code ' +
        'bundles a second copy into the extension host. Custom request names and types belong in protocol/src.',
      from: { path: src('client') },
      to: { path: ['^server/src/', '^cli/'] },
    },
    {
      name: 'client-core-for-formatting-only',
      severity: 'error',
      comment:
        'The client gets its analysis from the server; from core it may use only the formatting helpers ' +
        '(core/src/units, core/src/text) to show numbers the same way. Anything else from core means the client ' +
        'computes what the server should answer (add a request in protocol/src).',
      from: { path: src('client') },
      to: { path: '^core/', pathNot: '^core/src/(units|text)(\\.ts|/)' },
    },
  ],

  options: {
    // What is cruised is named on the command line (package.json, lint:deps): the source, test and bench folders.
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
