// The address bar follows the view: after the app opened (and any link was applied), every
// change of what a link holds rewrites the URL's query and fragment (history.replaceState,
// debounced; the diffs of the code edits are recomputed only when an edit changed, capture.ts), so the
// address is always a link to what is on screen. Anything else in the address (the old test
// parameters ?stall and ?bench, which the app no longer reads from it) is dropped.
import { useStore, type PlaygroundState } from '../store';
import { subscribeTutorialProgress } from '../tutorial/store';
import { captureLink } from './capture';
import { encodeLink } from './format';

const DELAY_MS = 250;

/** The parts of the state a link holds: a change in any of them rewrites the address. */
const watched = (s: PlaygroundState) => [s.linkNeedsFile, s.model, s.config, s.compiledConfig, s.layout, s.graph, s.code.file, s.code.line, s.code.asm, s.code.edits, s.timelineView, s.runBaseline, s.ops];

/** The address of the current view (absolute URL). */
export async function currentLink(): Promise<string> {
  const url = new URL(window.location.href);
  const link = await encodeLink(await captureLink(useStore.getState()));
  const hashAt = link.indexOf('#');
  url.search = hashAt < 0 ? link : link.slice(0, hashAt);
  url.hash = hashAt < 0 ? '' : link.slice(hashAt);
  return url.toString();
}

let timer: ReturnType<typeof setTimeout> | undefined;
let writing = Promise.resolve();

/** Puts the current view's link in the address bar, if it is not there already. */
async function rewrite(): Promise<void> {
  const link = await currentLink();
  if (link !== window.location.href) window.history.replaceState(null, '', link);
}

/** Starts following the view; returns a function that stops it. */
export function followView(): () => void {
  let last = watched(useStore.getState());
  const write = () => {
    writing = writing.then(async () => {
      // While a link waits for its model file, the address keeps that link (a reload asks again).
      if (!useStore.getState().linkNeedsFile) await rewrite();
    }).catch(() => undefined);
  };
  write();
  const later = () => { clearTimeout(timer); timer = setTimeout(write, DELAY_MS); };
  const stopTutorial = subscribeTutorialProgress(later);
  const stopStore = useStore.subscribe((s) => {
    const now = watched(s);
    if (now.every((x, i) => x === last[i])) return;
    last = now;
    later();
  });
  return () => { stopStore(); stopTutorial(); };
}

/** Resolves once the address bar shows the view as it is now (a pending rewrite done). */
export async function linkSettled(): Promise<void> {
  clearTimeout(timer);
  await writing;
  await rewrite();
}
