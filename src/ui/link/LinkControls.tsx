// The share link's controls: "Copy link" in the header (the address bar already follows the
// view; this copies it, or shows it to copy by hand where the clipboard is not allowed), and the
// prompt for the model file a link names by hash.
import { useRef, useState } from 'react';
import { useStore } from '../store';
import { dismissLinkFile, provideLinkFile } from './open';
import { currentLink, linkSettled } from './sync';
import './link.css';

export function CopyLink() {
  const [shown, setShown] = useState<{ link: string; copied: boolean } | null>(null);
  const copy = async () => {
    await linkSettled();
    const link = await currentLink();
    let copied = false;
    try {
      await navigator.clipboard.writeText(link);
      copied = true;
    } catch { /* no clipboard permission: the link is shown to copy by hand */ }
    setShown({ link, copied });
  };
  return (
    <span className="copy-link">
      <button type="button" className="button" data-testid="copy-link" title="Copy a link that reopens this model, configuration and view" onClick={() => void copy()}>
        Copy link
      </button>
      {shown && (
        <span className="copy-link-result" data-testid="link-copied" data-link={shown.link} data-length={shown.link.length}>
          {shown.copied ? 'copied' : 'copy it:'}{' '}
          <input readOnly value={shown.link} size={24} onFocus={(e) => e.currentTarget.select()} aria-label="the link" />
          <button type="button" className="button small" onClick={() => setShown(null)} aria-label="close">×</button>
        </span>
      )}
    </span>
  );
}

export function LinkFilePrompt() {
  const want = useStore((s) => s.linkNeedsFile);
  const input = useRef<HTMLInputElement>(null);
  if (!want) return null;
  return (
    <div className="link-needs-file" role="alert" data-testid="link-needs-file" data-name={want.name}>
      This link was made with the model file <b>{want.name}</b> ({want.size.toLocaleString('en-US')} bytes), which is too large to travel
      inside it. Open that file to go on (it is checked against the link&apos;s SHA-256 <code>{want.sha256.slice(0, 12)}…</code>).{' '}
      <button type="button" className="button small" onClick={() => input.current?.click()}>Open {want.name}…</button>{' '}
      <button type="button" className="button small" onClick={dismissLinkFile}>Open without it</button>
      <input ref={input} type="file" multiple hidden accept=".onnx,.npz" data-testid="link-file-input"
        onChange={(e) => { const files = [...(e.currentTarget.files ?? [])]; e.currentTarget.value = ''; void provideLinkFile(files); }} />
    </div>
  );
}
