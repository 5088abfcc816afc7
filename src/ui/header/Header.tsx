import { CopyLink } from '../link/LinkControls';
import { ModelInfo } from './ModelInfo';
import { ModelPicker } from './ModelPicker';
import { OpenFilesButton } from './OpenFilesButton';

export function Header() {
  return (
    <header className="header">
      <h1 className="title">Deeploy Playground</h1>
      <ModelPicker />
      <OpenFilesButton />
      <ModelInfo />
      <CopyLink />
    </header>
  );
}
