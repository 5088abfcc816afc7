import { useEffect } from 'react';
import { startup } from './actions';
import { ConfigPanel } from './config/ConfigPanel';
import { DropOverlay } from './DropOverlay';
import { ErrorBanner } from './ErrorBanner';
import { Header } from './header/Header';
import { RunBar } from './run/RunBar';
import { StageList } from './run/StageList';
import { TutorialPanel } from './tutorial/TutorialPanel';
import { Workspace } from './workspace/Workspace';

export function App() {
  useEffect(() => {
    void startup();
  }, []);
  return (
    <div className="app">
      <Header />
      <ErrorBanner />
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
