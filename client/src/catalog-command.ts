/** "Select Catalog Edition": sets `storagePerf.catalog`, the edition used by specs that name none. */
import * as vscode from 'vscode';
import { SECTION } from './common';

interface Manifest {
  contributes?: { configuration?: { properties?: Record<string, { enum?: string[]; enumDescriptions?: string[] }> } };
}

/** Offers the editions the setting's enum declares in the manifest (the one list of them the extension keeps). */
export async function selectCatalog(manifest: Manifest): Promise<void> {
  const prop = manifest.contributes?.configuration?.properties?.[`${SECTION}.catalog`];
  const config = vscode.workspace.getConfiguration(SECTION);
  const current = config.get<string>('catalog') ?? '';
  const items = (prop?.enum ?? []).map((edition, i): vscode.QuickPickItem & { edition: string } => ({
    label: edition || 'Newest for the provider',
    edition,
    description: edition === current ? '(current)' : undefined,
    detail: prop?.enumDescriptions?.[i],
  }));
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Storage Perf: catalog edition for specs that do not name one',
    placeHolder: 'A spec\'s own "catalog:" key always wins',
  });
  if (!pick) return;
  const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await config.update('catalog', pick.edition, target);
  void vscode.window.showInformationMessage(
    `Storage Perf: specs without a catalog key now use ${pick.edition || 'the newest edition for their provider'}.`,
  );
}
