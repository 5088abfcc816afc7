// The share link's controls: "Copy link" in the header (the address bar already follows the
// view; this copies it, or shows it to copy by hand where the clipboard is not allowed), and the
// prompt for the model file a link names by hash.
import { useRef, useState } from 'react';
import { useStore } from '../store';
import { answerLinkRun, dismissLinkFile, provideLinkFile } from './open';
import { linkOmissions } from './capture';
import { currentLink, linkSettled } from './sync';
import { shownName } from '../names';
import './link.css';

export function CopyLink() {
  const [shown, setShown] = useState<{ link: string; copied: boolean; left: readonly string[] } | null>(null);
  const copy = async () => {
    await linkSettled();
    const link = await currentLink();
    const left = linkOmissions();
    let copied = false;
    try {
      await navigator.clipboard.writeText(link);
      copied = true;
    } catch { /* no clipboard permission: the link is shown to copy by hand */ }
    setShown({ link, copied, left });
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
          {shown.left.length > 0 && <span className="copy-link-left" data-testid="link-left-out" role="status">The link leaves out {shown.left.join('; ')}.</span>}
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
      This link was made with the model file <b>{shownName(want.name)}</b> ({want.size.toLocaleString('en-US')} bytes), which is too large to travel
      inside it. Open that file to go on (it is checked against the link&apos;s SHA-256 <code>{want.sha256.slice(0, 12)}…</code>).{' '}
      <button type="button" className="button small" onClick={() => input.current?.click()}>Open {shownName(want.name)}…</button>{' '}
      <button type="button" className="button small" onClick={dismissLinkFile}>Open without it</button>
      <input ref={input} type="file" multiple hidden accept=".onnx,.npz" data-testid="link-file-input"
        onChange={(e) => { const files = [...(e.currentTarget.files ?? [])]; e.currentTarget.value = ''; void provideLinkFile(files); }} />
    </div>
  );
}

/** A link that would run C code it carries asks first (in the page: a test can answer it). */
export function LinkRunPrompt() {
  const ask = useStore((s) => s.linkRunPrompt);
  if (!ask) return null;
  return (
    <div className="link-run-prompt" role="alertdialog" aria-label="Run the link's code?" data-testid="link-run-prompt" data-files={ask.files.join(' ')}>
      This link runs C code it carries: {ask.files.map((f, i) => <span key={f}>{i ? ', ' : ''}<code>{shownName(f)}</code></span>)}. Run it?{' '}
      <button type="button" className="button small" data-testid="link-run-yes" onClick={() => answerLinkRun(true)}>Run</button>{' '}
      <button type="button" className="button small" data-testid="link-run-no" onClick={() => answerLinkRun(false)}>Don&apos;t run</button>
    </div>
  );
}
