import { CopyLink } from '../link/LinkControls';
import { OfflineNote } from '../offline/OfflineNote';
import { SessionNote } from '../session/SessionNote';
import { ModelInfo } from './ModelInfo';
import { ModelPicker } from './ModelPicker';
import { OpenFilesButton } from './OpenFilesButton';
import { TutorialButton } from '../tutorial/TutorialPanel';

export function Header() {
  return (
    <header className="header">
      <h1 className="title">Deeploy Playground</h1>
      <ModelPicker />
      <OpenFilesButton />
      <TutorialButton />
      <ModelInfo />
      <SessionNote />
      <OfflineNote />
      <CopyLink />
    </header>
  );
}
