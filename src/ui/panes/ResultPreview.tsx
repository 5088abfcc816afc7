import { useMemo } from 'react';
import type { StageName } from '../../pipeline/results';

const MAX_CHARS = 4000;

/** JSON of a stage result with typed arrays abbreviated and the text cut at MAX_CHARS. */
function previewJson(result: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(result, (_key, v: unknown) =>
      ArrayBuffer.isView(v) ? `${v.constructor.name}(${v.byteLength} bytes)`
        : typeof v === 'bigint' ? `${v}n` : v, 2) ?? String(result);
  } catch (err) {
    text = `(cannot show: ${err instanceof Error ? err.message : String(err)})`;
  }
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n… (${text.length - MAX_CHARS} more characters)` : text;
}

/** The raw result of a stage, until the pane has a real view of it. */
export function ResultPreview({ stage, result }: { stage: StageName; result: unknown }) {
  const text = useMemo(() => previewJson(result), [result]);
  return (
    <details className="result-preview" data-testid={`result-${stage}`}>
      <summary>{stage} result (raw)</summary>
      <pre>{text}</pre>
    </details>
  );
}
