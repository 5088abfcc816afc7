// Files the user drops or opens: which one is the model, which are the inputs and outputs,
// and the checks done before anything is sent to the worker.
import { PlaygroundError, fail } from '../common/errors';

export const MAX_FILE_BYTES = 64 * 1024 * 1024;
const MAX_LABEL = '64 MB';

export interface NamedBytes {
  name: string;
  bytes: Uint8Array;
}

/** The files of one drop, sorted by role. */
export interface PickedFiles<F> {
  model?: F;
  inputs?: F;
  outputs?: F;
}

type Role = keyof PickedFiles<unknown>;

/** *.onnx is the model; a .npz named input* / output* holds the inputs / expected outputs. */
export function roleOf(name: string): Role | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.onnx')) return 'model';
  if (lower.endsWith('.npz')) {
    if (lower.startsWith('input')) return 'inputs';
    if (lower.startsWith('output')) return 'outputs';
  }
  return null;
}

const ACCEPTED = 'an .onnx model, plus optionally inputs.npz and outputs.npz';

/** Sorts files by role; throws a bad-file error naming any file that has none or a duplicate role. */
export function pickFiles<F extends { name: string; size: number }>(files: readonly F[]): PickedFiles<F> {
  if (files.length === 0) fail('bad-file', 'no file was given', undefined, `open ${ACCEPTED}`);
  const picked: PickedFiles<F> = {};
  for (const f of files) {
    const role = roleOf(f.name);
    if (!role)
      fail('bad-file', `'${f.name}' is neither an .onnx model nor an inputs/outputs .npz file`, f.name,
        `open ${ACCEPTED}; .npz files are recognised by names starting with "input" or "output"`);
    const other = picked[role];
    if (other)
      fail('bad-file', `'${other.name}' and '${f.name}' are both ${role === 'model' ? 'models' : `${role} files`}`,
        f.name, 'open one model at a time');
    if (f.size > MAX_FILE_BYTES)
      fail('limit', `'${f.name}' is ${(f.size / 1024 / 1024).toFixed(1)} MB, more than the ${MAX_LABEL} limit`,
        f.name, `the playground accepts files up to ${MAX_LABEL}`);
    picked[role] = f;
  }
  return picked;
}

/** Reads a File without blocking the UI thread. */
export async function readFile(file: File): Promise<NamedBytes> {
  try {
    return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
  } catch (err) {
    throw new PlaygroundError({
      code: 'bad-file', what: `'${file.name}' could not be read: ${err instanceof Error ? err.message : String(err)}`,
      where: file.name, hint: 'check that the file still exists and is readable',
    });
  }
}

/** A file picked with a folder: webkitRelativePath is "folder/name" (or deeper). */
export interface FolderFile {
  name: string;
  webkitRelativePath: string;
}

/**
 * Files opened or dropped as a folder: those directly in it whose names give them a role
 * (other files and subfolders are ignored), and the folder's name, which names the model.
 */
export function fromFolder<F extends FolderFile>(files: readonly F[]): { files: F[]; folder: string } {
  const parts = (f: F) => f.webkitRelativePath.split('/');
  const folder = files.length ? parts(files[0]!)[0]! : '';
  return { files: files.filter((f) => parts(f).length === 2 && roleOf(f.name) !== null), folder };
}
