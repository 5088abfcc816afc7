// The tutorial as a side panel beside the workspace: the steps of Parts I, II and III (with the lab's table), each with what
// it is about, what to do, one-click set-ups, the questions, and a Check that reports what holds,
// what is missing and, once passed, the measured evidence. Mounted always: it records runs even
// while closed.
import { useEffect, useState } from 'react';
import { useStore } from '../store';
import { LabTable } from './LabTable';
import { applySetup } from './setup';
import { STEPS } from './steps';
import { checkStep, goToStep, openTutorial, resetTutorial, setAnswer, startRecorder, stepStatus, useTutorial } from './store';
import type { CheckResult, Setup, Step } from './types';
import './tutorial.css';

const PARTS: Record<1 | 2 | 3, string> = { 1: 'Part I: reading networks', 2: 'Part II: microLlama on Siracusa', 3: 'Part III: a new operator' };
const MARK = { passed: '✓', failed: '✗', 'not-yet': '·' } as const;
const ITEM_MARK = { ok: '✓', wrong: '✗', missing: '○' } as const;

function SetupButtons({ step }: { step: Step }) {
  const busy = useStore((s) => s.busy?.kind === 'load');
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (s: Setup) => {
    setPending(s.id);
    setError(null);
    const err = await applySetup(s);
    setPending(null);
    setError(err);
  };
  return (
    <div className="tut-setups">
      {step.setups.map((s) => (
        <button key={s.id} type="button" className="button small" data-testid="tutorial-setup" data-setup={s.id}
          disabled={pending !== null || busy} title={s.model ? `Loads ${s.model} and sets the configuration; then compile` : 'Sets the configuration and arranges the panes; then compile'}
          onClick={() => void run(s)}>
          {pending === s.id ? 'Setting up…' : `Set up: ${s.label}`}
        </button>
      ))}
      {error && <p className="tut-error" data-testid="tutorial-setup-error">{error}</p>}
    </div>
  );
}

function Result({ result }: { result: CheckResult }) {
  return (
    <div className="tut-result" data-testid="tutorial-result" data-status={result.status}>
      <ul className="tut-items">
        {result.items.map((i) => (
          <li key={i.id} className={`tut-item ${i.state}`} data-testid="tutorial-item" data-item={i.id} data-state={i.state}>
            <span className="tut-mark">{ITEM_MARK[i.state]}</span> {i.label}{i.detail ? <span className="tut-detail">: {i.detail}</span> : null}
          </li>
        ))}
      </ul>
      {result.evidence.length > 0 && (
        <div className="tut-evidence" data-testid="tutorial-evidence">
          <h4>What your results show</h4>
          {result.evidence.map((e, k) => <p key={k}>{e}</p>)}
        </div>
      )}
    </div>
  );
}

function StepBody({ step, next }: { step: Step; next: Step | undefined }) {
  const answers = useTutorial((s) => s.answers[step.id]);
  const result = useTutorial((s) => s.results[step.id]);
  const busy = useStore((s) => s.busy !== null);
  return (
    <div className="tut-body">
      <p className="tut-goal">{step.goal}</p>
      <ol className="tut-tasks">{step.tasks.map((t, k) => <li key={k}>{t}</li>)}</ol>
      <SetupButtons step={step} />
      <div className="tut-questions">
        {step.questions.map((q) => (
          <label key={q.id} className="tut-question">
            <span>{q.label}{q.tolerance ? <span className="tut-tol"> ({q.tolerance})</span> : null}</span>
            <span className="tut-answer-row">
              <input type="text" inputMode={q.kind === 'number' ? 'decimal' : 'text'} data-testid="tutorial-answer" data-question={q.id}
                value={answers?.[q.id] ?? ''} onChange={(e) => setAnswer(step.id, q.id, e.target.value)} />
              {q.unit && <span className="unit">{q.unit}</span>}
            </span>
          </label>
        ))}
      </div>
      <div className="tut-actions">
        <button type="button" className="button primary small" data-testid="tutorial-check" disabled={busy}
          title={busy ? 'Wait until the compile finishes' : 'Check what the panes show and your answers'}
          onClick={() => checkStep(step.id)}>
          Check
        </button>
        {next && <button type="button" className="button small" data-testid="tutorial-next" onClick={() => goToStep(next.id)}>Next step</button>}
      </div>
      {result && <Result result={result} />}
    </div>
  );
}

export function TutorialPanel() {
  useEffect(() => startRecorder(), []);
  const open = useTutorial((s) => s.open);
  const current = useTutorial((s) => s.step);
  const passed = useTutorial((s) => s.passed);
  const results = useTutorial((s) => s.results);
  if (!open) return null;
  return (
    <aside className="tutorial panel" data-testid="tutorial-panel" aria-label="Tutorial">
      <div className="tut-head">
        <h2>Tutorial</h2>
        <span className="tut-count" data-testid="tutorial-count">{passed.length} of {STEPS.length} passed</span>
        <button type="button" className="button small" data-testid="tutorial-reset" title="Forget every answer, pass and recorded run"
          onClick={() => { if (window.confirm('Start the tutorial over? Answers, passes and recorded runs are forgotten.')) resetTutorial(); }}>
          Start over
        </button>
        <button type="button" className="tut-close" data-testid="tutorial-close" aria-label="Close the tutorial" onClick={() => openTutorial(false)}>×</button>
      </div>
      {([1, 2, 3] as const).map((part) => (
        <section key={part} data-testid={`tutorial-part-${part}`}>
          <h3 className="tut-part">{PARTS[part]}</h3>
          {part === 3 && <LabTable />}
          <ol className="tut-steps">
            {STEPS.map((step, index) => {
              if (step.part !== part) return null;
              const status = stepStatus({ passed, results }, step.id);
              const isCurrent = step.id === current;
              return (
                <li key={step.id} className={`tut-step ${status}${isCurrent ? ' current' : ''}`} data-testid="tutorial-step"
                  data-step={step.id} data-status={status}>
                  <button type="button" className="tut-step-title" aria-expanded={isCurrent} onClick={() => goToStep(step.id)}>
                    <span className="tut-status" aria-label={status}>{MARK[status]}</span>
                    <span className="tut-num">{index + 1}.</span> {step.title}
                  </button>
                  {isCurrent && <StepBody step={step} next={STEPS[index + 1]} />}
                </li>
              );
            })}
          </ol>
        </section>
      ))}
    </aside>
  );
}

/** The header's button that opens and closes the panel, with the progress. */
export function TutorialButton() {
  const open = useTutorial((s) => s.open);
  const passed = useTutorial((s) => s.passed.length);
  return (
    <button type="button" className={`button tut-open${open ? ' on' : ''}`} data-testid="tutorial-open" aria-pressed={open}
      title="The Deeploy tutorial's tasks as guided, checked steps" onClick={() => openTutorial(!open)}>
      Tutorial {passed}/{STEPS.length}
    </button>
  );
}
