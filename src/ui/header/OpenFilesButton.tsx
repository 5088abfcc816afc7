import { useEffect, useRef } from 'react';
import { loadFiles } from '../actions';
import { fromFolder } from '../files';

/** Opens an .onnx model and, optionally, its inputs.npz / outputs.npz; or a Deeploy test folder holding them. */
export function OpenFilesButton() {
  const input = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    folderInput.current?.setAttribute('webkitdirectory', ''); // not in React's input props
  }, []);
  return (
    <>
      <button type="button" className="button" data-testid="file-open" onClick={() => input.current?.click()}>
        Open files…
      </button>
      <button type="button" className="button" data-testid="folder-open" title="A Deeploy test folder: network.onnx, inputs.npz, outputs.npz"
        onClick={() => folderInput.current?.click()}>
        Open folder…
      </button>
      <input ref={input} type="file" multiple hidden accept=".onnx,.npz" data-testid="file-input"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = ''; // so that opening the same file again fires onChange
          if (files.length) void loadFiles(files);
        }} />
      <input ref={folderInput} type="file" hidden data-testid="folder-input"
        onChange={(e) => {
          const { files, folder } = fromFolder(Array.from(e.target.files ?? []));
          e.target.value = '';
          void loadFiles(files, folder);
        }} />
    </>
  );
}
