// Saving a file from the page: a Blob behind a temporary link, clicked, then released.
export function download(name: string, data: string | Uint8Array, type: string): void {
  const url = URL.createObjectURL(new Blob([data as BlobPart], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Released after the browser has taken the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name part made of letters, digits, dots, dashes and underscores. */
export function fileSafe(s: string): string {
  return s.replace(/\.onnx$/i, '').replace(/[^\w.-]+/g, '_').slice(0, 80) || 'run';
}
