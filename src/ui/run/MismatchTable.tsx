import type { ShownMismatch } from '../stageChecks';

/** The first mismatching elements of a failed check: tensor (by name), coordinates, expected, got. */
export function MismatchTable({ rows, shown, className, testid, what = 'tensor' }: {
  rows: readonly ShownMismatch[]; shown: number; className: string; testid: string; what?: string;
}) {
  if (!rows.length) return null;
  return (
    <table className={className} data-testid={testid}>
      <thead><tr><th>{what}</th><th>index</th><th>expected</th><th>got</th></tr></thead>
      <tbody>
        {rows.slice(0, shown).map((m) => (
          <tr key={`${m.tensor}:${m.index}`} data-testid="mismatch-row">
            <td><code>{m.tensor}</code></td>
            <td title={`flat index ${m.index}`}><code>[{m.coords.join(',')}]</code></td>
            <td>{m.expected}</td>
            <td>{m.got}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
