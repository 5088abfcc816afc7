// The preprocessor's file system: an in-memory map of path -> text (the generated files, the
// kernel library, the runtime, the tiny libc and our freestanding headers) and the include
// search: "..." first beside the including file, then the -I directories, then the system ones;
// <...> the -I directories, then the system ones (like GCC and clang).

export interface SourceFiles {
  /** The text of a file, or undefined when there is none at that path. */
  read(path: string): string | undefined;
}

/** A SourceFiles over a Map or a plain record. */
export function filesFrom(files: ReadonlyMap<string, string> | Readonly<Record<string, string>>): SourceFiles {
  const map = files instanceof Map ? files : new Map(Object.entries(files));
  return { read: (p) => map.get(normalizePath(p)) ?? map.get(p) };
}

/** Files from several sources, the first that has a path wins. */
export function overlay(...layers: SourceFiles[]): SourceFiles {
  return {
    read: (p) => {
      for (const l of layers) {
        const t = l.read(p);
        if (t !== undefined) return t;
      }
      return undefined;
    },
  };
}

/** Joins and normalizes '/'-separated paths: a/./b/../c -> a/c; absolute paths stay absolute. */
export function joinPath(dir: string, name: string): string {
  if (name.startsWith('/') || dir === '' || dir === '.') return normalizePath(name);
  return normalizePath(`${dir}/${name}`);
}

export function normalizePath(p: string): string {
  const abs = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (part !== '..' || !abs) out.push(part);
  }
  const s = out.join('/');
  return abs ? `/${s}` : s || '.';
}

export function dirName(p: string): string {
  const k = p.lastIndexOf('/');
  return k < 0 ? '' : k === 0 ? '/' : p.slice(0, k);
}

export interface IncludePaths {
  /** -I directories, searched for "..." (after the includer's folder) and <...>. */
  user: readonly string[];
  /** System directories (our freestanding headers, the tiny libc), searched last. */
  system: readonly string[];
}

/** The path of an included file, or undefined when no directory has it. */
export function resolveInclude(fs: SourceFiles, name: string, quoted: boolean, includer: string, paths: IncludePaths): string | undefined {
  if (name.startsWith('/')) return fs.read(name) !== undefined ? normalizePath(name) : undefined;
  const dirs = [...(quoted ? [dirName(includer)] : []), ...paths.user, ...paths.system];
  for (const d of dirs) {
    const p = joinPath(d, name);
    if (fs.read(p) !== undefined) return p;
  }
  return undefined;
}
