import { useRef } from 'react';
import { loadFiles } from '../actions';

/** Opens an .onnx model and, optionally, its inputs.npz / outputs.npz. */
export function OpenFilesButton() {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="button" data-testid="file-open" onClick={() => input.current?.click()}>
        Open files…
      </button>
      <input ref={input} type="file" multiple hidden accept=".onnx,.npz" data-testid="file-input"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = ''; // so that opening the same file again fires onChange
          if (files.length) void loadFiles(files);
        }} />
    </>
  );
}
