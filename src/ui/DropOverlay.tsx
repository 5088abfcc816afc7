import { useEffect, useState } from 'react';
import { loadFiles } from './actions';
import { droppedFiles } from './dropped';

function hasFiles(e: DragEvent): boolean {
  return e.dataTransfer?.types.includes('Files') ?? false;
}

/** Accepts files dropped anywhere on the window; shows a hint while something is dragged over it. */
export function DropOverlay() {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      setDragging(true);
    };
    const over = (e: DragEvent) => {
      if (hasFiles(e)) e.preventDefault();
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      if (!e.dataTransfer) return;
      // Entries must be taken before the handler returns; the files are read afterwards.
      void droppedFiles(e.dataTransfer).then(({ files, folder }) => loadFiles(files, folder));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);
  if (!dragging) return null;
  return (
    <div className="drop-overlay" data-testid="drop-overlay">
      <div>Drop an <code>.onnx</code> model, optionally with <code>inputs.npz</code> and <code>outputs.npz</code></div>
    </div>
  );
}
