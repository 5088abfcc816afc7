import { useEffect } from 'react';
import { startup } from './actions';
import { restoreSession, startSaving } from './session/session';
import { ConfigPanel } from './config/ConfigPanel';
import { DropOverlay } from './DropOverlay';
import { ErrorBanner } from './ErrorBanner';
import { LinkFilePrompt, LinkRunPrompt } from './link/LinkControls';
import { Header } from './header/Header';
import { RunBar } from './run/RunBar';
import { StageList } from './run/StageList';
import { TutorialPanel } from './tutorial/TutorialPanel';
import { Workspace } from './workspace/Workspace';

export function App() {
  useEffect(() => {
    // A reload brings the session back; from then on it is saved as it changes.
    void startup(restoreSession).then(startSaving);
  }, []);
  return (
    <div className="app">
      <Header />
      <ErrorBanner />
      <LinkFilePrompt />
      <LinkRunPrompt />
      <main className="layout">
        <aside className="sidebar">
          <ConfigPanel />
          <RunBar />
          <StageList />
        </aside>
        <Workspace />
        <TutorialPanel />
      </main>
      <DropOverlay />
    </div>
  );
}
