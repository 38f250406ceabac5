/**
 * Extended attributes (an SELinux label, a macOS quarantine flag, `user.*` notes) kept across the one writer's
 * replacing write. Node has no API for them, so they are read and set through `@napi-rs/xattr`, a small native
 * module with prebuilt binaries for Linux, macOS and FreeBSD. Where it does not load (another platform, or the
 * VS Code extension, which ships no native module), `xattrsKept()` is false and docs/robustness.md says what that
 * means; nothing here throws for its absence.
 */
interface XattrApi {
  listAttributesSync(path: string): string[];
  getAttributeSync(path: string, name: string): Buffer | null;
  setAttributeSync(path: string, name: string, value: Uint8Array): void;
}

let api: XattrApi | null | undefined;

function load(): XattrApi | null {
  if (api === undefined) {
    try {
      // A native module: required when first needed, so that a platform without its binary still runs.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      api = require('@napi-rs/xattr') as XattrApi;
    } catch {
      api = null;
    }
  }
  return api;
}

/** Whether a replacing write keeps extended attributes here. */
export function xattrsKept(): boolean {
  return load() !== null;
}

/**
 * Copies every extended attribute of `from` onto `to` (the temporary file that will replace it). An attribute the
 * system sets itself on a new file and will not let us set (`security.*`, `trusted.*` as a user) is left to the
 * system. Returns why a `user.*` attribute could not be kept (the writer then refuses: it would be lost), else
 * undefined.
 */
export function copyXattrs(from: string, to: string): string | undefined {
  const x = load();
  if (!x) return undefined;
  let names: string[];
  try {
    names = x.listAttributesSync(from);
  } catch {
    return undefined; // the file system has none
  }
  for (const name of names) {
    const value = x.getAttributeSync(from, name);
    if (value === null) continue;
    try {
      x.setAttributeSync(to, name, value);
    } catch (e) {
      if (name.startsWith('user.')) return `cannot keep its extended attribute ${name} (${(e as Error).message})`;
    }
  }
  return undefined;
}
