// sanitize-names: every node and tensor name becomes a C identifier, since the generated code
// names its buffers and layers after them ("onnx::Add_0" -> "onnx__Add_0", "4" -> "_4").
import type { Graph } from '../../ir/graph';
import { definePass } from '../define';

const C_KEYWORDS = new Set(['auto', 'break', 'case', 'char', 'const', 'continue', 'default', 'do', 'double', 'else', 'enum',
  'extern', 'float', 'for', 'goto', 'if', 'inline', 'int', 'long', 'register', 'restrict', 'return', 'short', 'signed',
  'sizeof', 'static', 'struct', 'switch', 'typedef', 'union', 'unsigned', 'void', 'volatile', 'while', 'main']);

export function cIdentifier(name: string): string {
  let s = name.replace(/[^A-Za-z0-9_]/g, '_');
  if (s === '' || /^[0-9]/.test(s) || C_KEYWORDS.has(s)) s = `_${s}`;
  return s;
}

/** old -> new for every name that changes, unique among `names`. */
function renames(names: Iterable<string>): Map<string, string> {
  const all = [...new Set(names)];
  const taken = new Set(all.filter((n) => cIdentifier(n) === n));
  const map = new Map<string, string>();
  for (const n of all) {
    const base = cIdentifier(n);
    if (base === n) continue;
    let s = base;
    for (let k = 1; taken.has(s); k++) s = `${base}_${k}`;
    taken.add(s);
    map.set(n, s);
  }
  return map;
}

export function tensorNames(g: Pick<Graph, 'nodes' | 'inputs' | 'outputs' | 'initializers'>): string[] {
  return [...g.inputs.map((v) => v.name), ...Object.keys(g.initializers), ...g.outputs.map((v) => v.name),
    ...g.nodes.flatMap((n) => [...n.inputs, ...n.outputs]).filter(Boolean)];
}

export const sanitizeNames = definePass({
  name: 'sanitize-names',
  doc: 'Renames nodes and tensors to valid, unique C identifiers (the generated code is named after them).',
  rewrite(ed) {
    ed.renameTensors(renames(tensorNames(ed)));
    const nodeMap = renames(ed.nodes.map((n) => n.name));
    for (const n of ed.each()) {
      const to = nodeMap.get(n.name);
      if (to) ed.replace(n, [{ ...n, name: to }]);
    }
  },
});
