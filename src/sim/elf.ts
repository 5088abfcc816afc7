// ELF32 reader for RISC-V executables: the header checks and the PT_LOAD segments, nothing
// more (sections and symbols are not needed to run a program).
import { fail } from '../common/errors';

export interface Segment {
  vaddr: number;
  /** The file's bytes of the segment (filesz); the rest up to memsz is zero. */
  data: Uint8Array;
  memsz: number;
  flags: number;
}

export interface Elf {
  entry: number;
  segments: Segment[];
}

const EM_RISCV = 243;
const PT_LOAD = 1;

export function parseElf(bytes: Uint8Array, name = 'program.elf'): Elf {
  const bad = (what: string, hint?: string): never => fail('bad-file', what, name, hint);
  if (bytes.length < 52 || bytes[0] !== 0x7f || bytes[1] !== 0x45 || bytes[2] !== 0x4c || bytes[3] !== 0x46) {
    bad('not an ELF file (no \\x7fELF magic)');
  }
  if (bytes[4] === 2) bad('a 64-bit ELF file; the simulator runs RV32 programs', 'build with -march=rv32imc -mabi=ilp32');
  if (bytes[4] !== 1) bad(`unknown ELF class ${bytes[4]}`);
  if (bytes[5] !== 1) bad('a big-endian ELF file; RISC-V is little-endian');
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (o: number) => dv.getUint16(o, true);
  const u32 = (o: number) => dv.getUint32(o, true);
  const machine = u16(18);
  if (machine !== EM_RISCV) bad(`an ELF file for machine ${machine}, not RISC-V (${EM_RISCV})`, 'build with --target=riscv32-unknown-elf');
  const type = u16(16);
  if (type !== 2) bad(`ELF type ${type} is not an executable (ET_EXEC)`, 'link the program statically');
  const entry = u32(24);
  const phoff = u32(28);
  const phentsize = u16(42);
  const phnum = u16(44);
  if (phnum === 0 || phentsize < 32 || phoff + phnum * phentsize > bytes.length) bad('truncated or missing program headers');
  const segments: Segment[] = [];
  for (let i = 0; i < phnum; i++) {
    const o = phoff + i * phentsize;
    if (u32(o) !== PT_LOAD) continue;
    const offset = u32(o + 4);
    const vaddr = u32(o + 8);
    const filesz = u32(o + 16);
    const memsz = u32(o + 20);
    if (memsz === 0) continue;
    if (offset + filesz > bytes.length || filesz > memsz) bad(`segment ${i} runs past the end of the file`);
    segments.push({ vaddr, data: bytes.subarray(offset, offset + filesz), memsz, flags: u32(o + 24) });
  }
  if (segments.length === 0) bad('no loadable (PT_LOAD) segments');
  return { entry, segments };
}

/** The named sections of an ELF32 file (name -> bytes), for its debug info; {} without section headers. */
export function elfSections(bytes: Uint8Array): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  if (bytes.length < 52) return out;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const shoff = dv.getUint32(32, true), shentsize = dv.getUint16(46, true), shnum = dv.getUint16(48, true), shstrndx = dv.getUint16(50, true);
  if (!shoff || shentsize < 40 || shoff + shnum * shentsize > bytes.length || shstrndx >= shnum) return out;
  const sh = (i: number) => ({ name: dv.getUint32(shoff + i * shentsize, true), offset: dv.getUint32(shoff + i * shentsize + 16, true), size: dv.getUint32(shoff + i * shentsize + 20, true) });
  const strtab = sh(shstrndx);
  const nameAt = (o: number) => {
    let end = strtab.offset + o;
    while (end < bytes.length && bytes[end]) end++;
    return new TextDecoder().decode(bytes.subarray(strtab.offset + o, end));
  };
  for (let i = 1; i < shnum; i++) {
    const s = sh(i);
    if (s.offset + s.size <= bytes.length) out.set(nameAt(s.name), bytes.subarray(s.offset, s.offset + s.size));
  }
  return out;
}
