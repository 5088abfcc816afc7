import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readOnnx } from '../compiler/onnx/read';
import { graphView, layoutInput } from '../ui/panes/graph/model';
import type { LayoutInput } from './graph-api';
import { graphService } from './graph-service';
import { layoutGraph, simpleLayout } from './layout';

const MOBILENET = new URL('../../../shared/deeploy-tests/Models/miniMobileNetv2/network.onnx', import.meta.url);

function chain(n: number): LayoutInput {
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `n${i}`, width: 80, height: 38 }));
  return { nodes, edges: nodes.slice(1).map((b, i) => ({ from: `n${i}`, to: b.id })) };
}

/** Every box inside the drawing, no two boxes overlapping, edges going down. */
function checkLayout(input: LayoutInput, l: ReturnType<typeof layoutGraph>) {
  expect(l.centres).toHaveLength(2 * input.nodes.length);
  expect(l.routes).toHaveLength(input.edges.length);
  const boxes = input.nodes.map((n, i) => ({ ...n, x: l.centres[2 * i]!, y: l.centres[2 * i + 1]! }));
  for (const b of boxes) {
    expect(b.x - b.width / 2).toBeGreaterThanOrEqual(0);
    expect(b.y + b.height / 2).toBeLessThanOrEqual(l.height + 0.01);
  }
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < Math.min(boxes.length, i + 40); j++) {
      const a = boxes[i]!, b = boxes[j]!;
      const apart = Math.abs(a.x - b.x) >= (a.width + b.width) / 2 || Math.abs(a.y - b.y) >= (a.height + b.height) / 2;
      expect(apart).toBe(true);
    }
  const at = new Map(boxes.map((b) => [b.id, b]));
  for (const e of input.edges) expect(at.get(e.to)!.y).toBeGreaterThan(at.get(e.from)!.y);
}

describe('graph layout', () => {
  it('lays out a network top to bottom without overlaps', () => {
    const g = readOnnx(new Uint8Array(readFileSync(MOBILENET)), 'network.onnx');
    const input = layoutInput(graphView(g));
    const l = layoutGraph(input);
    checkLayout(input, l);
    for (const r of l.routes) expect(r.length).toBeGreaterThanOrEqual(4);
  });

  it('lays out a 1000-node chain', () => {
    const input = chain(1000);
    checkLayout(input, layoutGraph(input));
  });

  it('falls back to its own layered layout for graphs deeper than dagre can recurse', () => {
    const input = chain(3000);
    const l = layoutGraph(input);
    checkLayout(input, l);
    expect(simpleLayout(chain(3)).centres).toEqual([56, 35, 56, 95, 56, 155]);
  });

  it('exports a graph as .onnx bytes that read back to the same graph', () => {
    const g = readOnnx(new Uint8Array(readFileSync(MOBILENET)), 'network.onnx');
    const bytes = graphService.exportOnnx(g);
    const back = readOnnx(bytes, 'export.onnx');
    expect(back.nodes.map((n) => [n.name, n.op])).toEqual(g.nodes.map((n) => [n.name, n.op]));
    expect(Object.keys(back.initializers).sort()).toEqual(Object.keys(g.initializers).sort());
  });
});
