// The TypeScript side: loading the wasm core from bytes and over HTTP (as a browser does), the
// ELF loader's errors, runElf's results, and the disassembler on words LLVM 19 cannot check.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { PlaygroundError } from '../common/errors';
import { createMachine, disassemble, disassembleBytes, instantiateSim, parseElf, runElf } from './index';
import { encode } from './isa/encode';
import { DECODE_ORDER, EXEC_ROWS, FIRST_OP, TABLE, decodeRow, opOf, operands } from './isa/table';
import type { Machine } from './machine';
import { nodeMachine, simWasmBytes } from './node';

let m: Machine;
beforeAll(async () => { m = await nodeMachine(); });

/** A minimal ELF32 RISC-V executable with one PT_LOAD segment holding `code` at `vaddr`. */
function elf(code: number[], vaddr = 0x1c000000, patch: (dv: DataView) => void = () => {}): Uint8Array {
  const bytes = new Uint8Array(52 + 32 + code.length * 4);
  const dv = new DataView(bytes.buffer);
  bytes.set([0x7f, 0x45, 0x4c, 0x46, 1, 1, 1]);
  dv.setUint16(16, 2, true); // ET_EXEC
  dv.setUint16(18, 243, true); // EM_RISCV
  dv.setUint32(24, vaddr, true); // entry
  dv.setUint32(28, 52, true); // phoff
  dv.setUint16(42, 32, true);
  dv.setUint16(44, 1, true);
  dv.setUint32(52, 1, true); // PT_LOAD
  dv.setUint32(56, 84, true); // offset
  dv.setUint32(60, vaddr, true);
  dv.setUint32(68, code.length * 4, true);
  dv.setUint32(72, code.length * 4 + 64, true); // memsz: 64 bytes of .bss
  code.forEach((w, i) => dv.setUint32(84 + i * 4, w, true));
  patch(dv);
  return bytes;
}

/** write(1, msg, len) then exit(7), with the message right after the code. */
function helloProgram(): number[] {
  const code = [
    encode('auipc', { rd: 11, imm: 0 }), encode('addi', { rd: 11, rs1: 11, imm: 36 }), encode('addi', { rd: 10, rs1: 0, imm: 1 }),
    encode('addi', { rd: 12, rs1: 0, imm: 4 }), encode('addi', { rd: 17, rs1: 0, imm: 64 }), encode('ecall'),
    encode('addi', { rd: 10, rs1: 0, imm: 7 }), encode('addi', { rd: 17, rs1: 0, imm: 93 }), encode('ecall'),
  ];
  return [...code, 0x0a216968]; // "hi!\n"
}

describe('loading the core', () => {
  it('from bytes, a Response and a URL over HTTP', async () => {
    const bytes = await simWasmBytes();
    const server = createServer((_, res) => { res.writeHead(200, { 'content-type': 'application/wasm' }); res.end(bytes); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sim.wasm`;
      for (const src of [bytes, new Response(bytes.slice().buffer as ArrayBuffer), url, new URL(url)]) {
        const x = await instantiateSim(src);
        expect(x.numOps()).toBe(EXEC_ROWS.length + FIRST_OP);
      }
    } finally {
      server.close();
    }
  });

  it('gives each machine its own memory', async () => {
    const a = await createMachine(await simWasmBytes());
    const b = await createMachine(await simWasmBytes());
    a.writeWord(0x1c000000, 0x12345678);
    expect(b.readWord(0x1c000000)).toBe(0);
  });
});

describe('runElf', () => {
  it('runs a program with write and exit system calls', () => {
    const r = runElf(m, elf(helloProgram()));
    expect(r).toMatchObject({ stopped: 'exit', exitCode: 7, stdout: 'hi!\n', stderr: '', instructions: 9 });
    expect(r.cycles).toBeGreaterThanOrEqual(9);
    expect(r.trap).toBeUndefined();
  });

  it('stops at the cycle limit', () => {
    const r = runElf(m, elf([encode('jal', { rd: 0, imm: 0 })]), { maxCycles: 1000 });
    expect(r.stopped).toBe('limit');
    expect(r.exitCode).toBeNull();
    expect(r.cycles).toBeGreaterThanOrEqual(1000);
    expect(r.cycles).toBeLessThanOrEqual(1002); // at most one 2-cycle jump past the limit
  });

  it('reports traps with cause, pc and instruction', () => {
    const r = runElf(m, elf([encode('addi', { rd: 5, rs1: 0, imm: 1 }), encode('lw', { rd: 6, rs1: 0, imm: 16 })]));
    expect(r.stopped).toBe('trap');
    expect(r.trap).toEqual({
      cause: 5, name: 'load access fault', pc: 0x1c000004, insn: encode('lw', { rd: 6, rs1: 0, imm: 16 }),
      disasm: 'lw t1, 16(zero)', tval: 16, core: 0,
    });
  });

  it('answers unknown system calls with -ENOSYS', () => {
    const code = [encode('addi', { rd: 17, rs1: 0, imm: 999 }), encode('ecall'), encode('addi', { rd: 17, rs1: 0, imm: 93 }), encode('ecall')];
    expect(runElf(m, elf(code)).exitCode).toBe(-38);
  });

  it('loads into L1 as well', () => {
    expect(runElf(m, elf(helloProgram(), 0x10000000)).stdout).toBe('hi!\n');
  });
});

describe('ELF errors', () => {
  const err = (bytes: Uint8Array) => {
    try { runElf(m, bytes); } catch (e) { if (e instanceof PlaygroundError) return e.data; throw e; }
    throw new Error('no error');
  };
  it('names what is wrong', () => {
    expect(err(new Uint8Array([1, 2, 3]))).toMatchObject({ code: 'bad-file', what: expect.stringContaining('not an ELF') });
    expect(err(elf([], 0x1c000000, (dv) => dv.setUint8(4, 2))).what).toContain('64-bit');
    expect(err(elf([], 0x1c000000, (dv) => dv.setUint16(18, 62, true))).what).toContain('not RISC-V');
    expect(err(elf([], 0x1c000000, (dv) => dv.setUint16(16, 1, true))).what).toContain('not an executable');
    const out = err(elf([0x13], 0x40000000)); // no memory there (L3 starts at 0x80000000)
    expect(out.what).toContain('outside the Siracusa memory map');
    expect(out.hint).toContain('0x1c000000');
    expect(err(elf([0x13], 0x1c1ffff0)).what).toContain('outside'); // runs past the end of L2
  });
  it('parses segments', () => {
    expect(parseElf(elf([1, 2])).segments).toMatchObject([{ vaddr: 0x1c000000, memsz: 72 }]);
  });
});

describe('decoder: wasm and TypeScript agree', () => {
  it('on words of every row and on random words', async () => {
    const x = await instantiateSim(await simWasmBytes());
    let seed = 99;
    const rand = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
    const words = [...TABLE.flatMap((r) => [r.match, (r.match | (rand() & ~r.mask)) >>> 0]), ...Array.from({ length: 20000 }, rand)];
    for (const w0 of words) {
      const w = (w0 & 3) === 3 ? w0 >>> 0 : w0 & 0xffff;
      const got = x.decode(w) >>> 0;
      const row = decodeRow(w);
      if (!row) { expect(got & 0x1ff, `0x${w.toString(16)}`).toBe(1); continue; }
      const o = operands(row.format, w);
      const rd = row.format.writesRd && o.rd === 0 ? 32 : o.rd;
      const want = (opOf(row) | ((row.size === 2 ? 1 : 0) << 9) | (rd << 10) | (o.rs1 << 16) | (o.rs2 << 21) | ((o.aux & 63) << 26)) >>> 0;
      expect(got.toString(16), `${row.id} 0x${w.toString(16)}`).toBe(want.toString(16));
      expect(x.decodedImm(), `${row.id} imm`).toBe(o.imm);
    }
    expect(DECODE_ORDER.length).toBe(TABLE.length);
  });
});

describe('browser-safe modules', () => {
  it('import no Node APIs (only node.ts, gen/ and testing/ may)', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const dir = new URL('./', import.meta.url);
    const files = ['', 'isa/'].flatMap((d) => readdirSync(new URL(d, dir)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => d + f));
    const offenders = files.filter((f) => f !== 'node.ts' && /from ['"]node:/.test(readFileSync(new URL(f, dir), 'utf8')));
    expect(offenders).toEqual([]);
    expect(files).toContain('machine.ts');
  });
});

describe('disassembler', () => {
  it('prints the hardware loop instructions (not in LLVM 19)', () => {
    expect(disassemble(encode('cv.setupi', { rs2: 1, imm: 100, aux: 20 })).text).toBe('cv.setupi 1, 100, 20');
    expect(disassemble(encode('cv.setup', { rs2: 0, rs1: 10, imm: 12 })).text).toBe('cv.setup 0, a0, 12');
    expect(disassemble(encode('cv.starti', { rs2: 0, imm: 3 })).text).toBe('cv.starti 0, 3');
    expect(disassemble(encode('cv.count', { rs2: 1, rs1: 11 })).text).toBe('cv.count 1, a1');
    // The CV32E40P manual's encodings, bit by bit: uimmL | rs1 | 100 | funct4 | L | 0101011.
    expect(encode('cv.endi', { rs2: 1, imm: 5 })).toBe(((5 << 20) | (0b100 << 12) | (0b0010 << 8) | (1 << 7) | 0x2b) >>> 0);
    expect(encode('cv.setupi', { rs2: 0, imm: 7, aux: 9 })).toBe(((7 << 20) | (9 << 15) | (0b100 << 12) | (0b0110 << 8) | 0x2b) >>> 0);
  });
  it('walks a byte buffer of mixed 16- and 32-bit instructions', () => {
    const bytes = new Uint8Array([0x01, 0x00, 0x13, 0x05, 0xb5, 0xff, 0xff, 0xff, 0xff, 0xff]);
    expect(disassembleBytes(bytes, 0x100).map((d) => [d.pc, d.text])).toEqual([
      [0x100, 'c.nop'], [0x102, 'addi a0, a0, -5'], [0x106, 'unknown'],
    ]);
  });
});
