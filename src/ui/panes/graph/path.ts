// An edge route as an SVG path: a B-spline through dagre's points, as d3's curveBasis draws it.

const r = (v: number) => Math.round(v * 10) / 10;

export function basisPath(p: readonly number[]): string {
  const n = p.length >> 1;
  if (n < 2) return '';
  let d = `M${r(p[0]!)},${r(p[1]!)}`;
  let [x0, y0, x1, y1] = [p[0]!, p[1]!, p[2]!, p[3]!];
  if (n === 2) return `${d}L${r(x1)},${r(y1)}`;
  d += `L${r((5 * x0 + x1) / 6)},${r((5 * y0 + y1) / 6)}`;
  const curve = (x: number, y: number) => {
    d += `C${r((2 * x0 + x1) / 3)},${r((2 * y0 + y1) / 3)},${r((x0 + 2 * x1) / 3)},${r((y0 + 2 * y1) / 3)},`
      + `${r((x0 + 4 * x1 + x) / 6)},${r((y0 + 4 * y1 + y) / 6)}`;
    [x0, y0, x1, y1] = [x1, y1, x, y];
  };
  for (let i = 2; i < n; i++) curve(p[2 * i]!, p[2 * i + 1]!);
  curve(x1, y1);
  return `${d}L${r(x1)},${r(y1)}`;
}
