// What a drop holds: plain files, or one folder (a Deeploy test folder) whose own files are
// read through the File and Directory Entries API.
import { roleOf } from './files';

export interface Dropped {
  files: File[];
  /** Set when a folder was dropped: its name. */
  folder?: string;
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Every entry of a directory (readEntries returns them in batches until an empty one). */
async function entriesOf(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return all;
    all.push(...batch);
  }
}

/** The files of a drop; a dropped folder contributes its own files that have a role, and its name. */
export async function droppedFiles(data: DataTransfer): Promise<Dropped> {
  const entries = Array.from(data.items, (i) => i.webkitGetAsEntry?.() ?? null);
  const dir = entries.find((e): e is FileSystemDirectoryEntry => e?.isDirectory === true);
  if (!dir) return { files: Array.from(data.files) };
  const own = (await entriesOf(dir)).filter((e): e is FileSystemFileEntry => e.isFile && roleOf(e.name) !== null);
  return { files: await Promise.all(own.map(fileOf)), folder: dir.name };
}
