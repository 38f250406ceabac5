/** Document URIs as the server's features need them: file paths and the names fio job files give a spec. */
import { fileURLToPath } from 'node:url';

/** The file path of a `file:` URI; any other URI as it is. */
export function pathOf(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/** The name of the spec's file, as the generated fio jobs' "compare" hint names it. */
export function specNameOf(uri: string): string {
  const path = pathOf(uri);
  return path.slice(path.replace(/\\/g, '/').lastIndexOf('/') + 1);
}
