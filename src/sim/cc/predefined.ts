// The predefined macros of our target (RV32IMC, ilp32, freestanding, little-endian, unsigned
// char), the same names and values clang-19 defines for --target=riscv32-unknown-elf
// -march=rv32imc -ffreestanding, and the answers to __has_builtin / __has_attribute /
// __has_feature: what our compiler implements.
import type { PreprocessOptions } from './preprocess';

const TARGET: Array<[string, string]> = [
  // Standard and compiler identity: GNU C extensions are on, as in GCC 4.2 (what clang claims).
  ['__STDC__', '1'], ['__STDC_HOSTED__', '0'], ['__STDC_UTF_16__', '1'], ['__STDC_UTF_32__', '1'],
  ['__GNUC__', '4'], ['__GNUC_MINOR__', '2'], ['__GNUC_PATCHLEVEL__', '1'], ['__GNUC_STDC_INLINE__', '1'],
  ['__NO_INLINE__', '1'], ['__VERSION__', '"dpg-cc 0.1 (Deeploy Playground)"'], ['__dpg_cc__', '1'],
  ['__DATE__', '"Jan  1 2000"'], ['__TIME__', '"00:00:00"'],
  ['__USER_LABEL_PREFIX__', ''], ['__ELF__', '1'],
  // RISC-V
  ['__riscv', '1'], ['__riscv_xlen', '32'], ['__riscv_i', '2001000'], ['__riscv_m', '2000000'], ['__riscv_c', '2000000'],
  ['__riscv_mul', '1'], ['__riscv_div', '1'], ['__riscv_muldiv', '1'], ['__riscv_zmmul', '1000000'], ['__riscv_compressed', '1'],
  ['__riscv_float_abi_soft', '1'], ['__riscv_cmodel_medlow', '1'], ['__riscv_arch_test', '1'], ['__riscv_misaligned_avoid', '1'],
  // Data model: ILP32
  ['_ILP32', '1'], ['__ILP32__', '1'], ['__CHAR_BIT__', '8'], ['__CHAR_UNSIGNED__', '1'],
  ['__ORDER_LITTLE_ENDIAN__', '1234'], ['__ORDER_BIG_ENDIAN__', '4321'], ['__ORDER_PDP_ENDIAN__', '3412'],
  ['__BYTE_ORDER__', '__ORDER_LITTLE_ENDIAN__'], ['__LITTLE_ENDIAN__', '1'], ['__BIGGEST_ALIGNMENT__', '16'],
  ['__SIZEOF_SHORT__', '2'], ['__SIZEOF_INT__', '4'], ['__SIZEOF_LONG__', '4'], ['__SIZEOF_LONG_LONG__', '8'],
  ['__SIZEOF_POINTER__', '4'], ['__SIZEOF_SIZE_T__', '4'], ['__SIZEOF_PTRDIFF_T__', '4'], ['__SIZEOF_WCHAR_T__', '4'],
  ['__SIZEOF_WINT_T__', '4'], ['__SIZEOF_FLOAT__', '4'], ['__SIZEOF_DOUBLE__', '8'], ['__SIZEOF_LONG_DOUBLE__', '16'],
  ['__SCHAR_MAX__', '127'], ['__SHRT_MAX__', '32767'], ['__INT_MAX__', '2147483647'], ['__LONG_MAX__', '2147483647L'],
  ['__LONG_LONG_MAX__', '9223372036854775807LL'], ['__WCHAR_MAX__', '2147483647'], ['__WINT_MAX__', '4294967295U'],
  ['__INTMAX_MAX__', '9223372036854775807LL'], ['__UINTMAX_MAX__', '18446744073709551615ULL'],
  ['__SIZE_MAX__', '4294967295U'], ['__PTRDIFF_MAX__', '2147483647'], ['__INTPTR_MAX__', '2147483647'], ['__UINTPTR_MAX__', '4294967295U'],
  ['__SHRT_WIDTH__', '16'], ['__INT_WIDTH__', '32'], ['__LONG_WIDTH__', '32'], ['__LLONG_WIDTH__', '64'],
  ['__POINTER_WIDTH__', '32'], ['__SIZE_WIDTH__', '32'], ['__PTRDIFF_WIDTH__', '32'], ['__INTMAX_WIDTH__', '64'],
  // The types stdint.h and stddef.h are built on.
  ['__SIZE_TYPE__', 'unsigned int'], ['__PTRDIFF_TYPE__', 'int'], ['__WCHAR_TYPE__', 'int'], ['__WINT_TYPE__', 'unsigned int'],
  ['__INTMAX_TYPE__', 'long long int'], ['__UINTMAX_TYPE__', 'long long unsigned int'],
  ['__INTPTR_TYPE__', 'int'], ['__UINTPTR_TYPE__', 'unsigned int'], ['__CHAR16_TYPE__', 'unsigned short'], ['__CHAR32_TYPE__', 'unsigned int'],
  ['__INT8_TYPE__', 'signed char'], ['__INT16_TYPE__', 'short'], ['__INT32_TYPE__', 'int'], ['__INT64_TYPE__', 'long long int'],
  ['__UINT8_TYPE__', 'unsigned char'], ['__UINT16_TYPE__', 'unsigned short'], ['__UINT32_TYPE__', 'unsigned int'], ['__UINT64_TYPE__', 'long long unsigned int'],
  ['__INT8_MAX__', '127'], ['__INT16_MAX__', '32767'], ['__INT32_MAX__', '2147483647'], ['__INT64_MAX__', '9223372036854775807LL'],
  ['__UINT8_MAX__', '255'], ['__UINT16_MAX__', '65535'], ['__UINT32_MAX__', '4294967295U'], ['__UINT64_MAX__', '18446744073709551615ULL'],
  ['__INT8_C_SUFFIX__', ''], ['__INT16_C_SUFFIX__', ''], ['__INT32_C_SUFFIX__', ''], ['__INT64_C_SUFFIX__', 'LL'],
  ['__UINT8_C_SUFFIX__', ''], ['__UINT16_C_SUFFIX__', ''], ['__UINT32_C_SUFFIX__', 'U'], ['__UINT64_C_SUFFIX__', 'ULL'],
  ['__INTMAX_C_SUFFIX__', 'LL'], ['__UINTMAX_C_SUFFIX__', 'ULL'],
];

/** The builtins our compiler implements (the kernel library uses the first few). */
const BUILTINS = new Set([
  '__builtin_expect', '__builtin_memcpy', '__builtin_memset', '__builtin_memmove', '__builtin_memcmp', '__builtin_strlen',
  '__builtin_va_start', '__builtin_va_end', '__builtin_va_arg', '__builtin_va_copy', '__builtin_offsetof',
  '__builtin_unreachable', '__builtin_trap', '__builtin_constant_p', '__builtin_types_compatible_p',
  '__builtin_abs', '__builtin_clz', '__builtin_ctz', '__builtin_popcount', '__builtin_bswap16', '__builtin_bswap32',
  '__builtin_assume_aligned', '__builtin_choose_expr',
]);

const ATTRIBUTES = new Set([
  'always_inline', 'noinline', 'section', 'aligned', 'may_alias', 'noreturn', 'format', 'packed', 'unused', 'used',
  'weak', 'const', 'pure', 'vector_size', 'naked', 'cold', 'hot', 'interrupt', 'nonnull', 'deprecated', 'fallthrough',
]);

const FEATURES = new Set(['c_static_assert', 'c_alignas', 'c_alignof']);

/** `__has_builtin(x)`: 1 for what our compiler implements. */
export function hasBuiltin(name: string): boolean {
  return BUILTINS.has(name);
}

/** `__has_attribute(x)`: also accepts the __x__ spelling. */
export function hasAttribute(name: string): boolean {
  return ATTRIBUTES.has(name.replace(/^__(.*)__$/, '$1'));
}

export function hasFeature(name: string): boolean {
  return FEATURES.has(name);
}

/** The predefined macros and the -D / -U options as source text, read before the main file. */
export function predefinedSource(opts: Pick<PreprocessOptions, 'std' | 'defines' | 'undefines'>): string {
  const lines = TARGET.map(([n, v]) => `#define ${n} ${v}`);
  lines.push(`#define __STDC_VERSION__ ${opts.std === 'c99' ? '199901L' : '201112L'}`);
  for (const d of opts.defines ?? []) {
    const eq = d.indexOf('=');
    lines.push(eq < 0 ? `#define ${d} 1` : `#define ${d.slice(0, eq)} ${d.slice(eq + 1)}`);
  }
  for (const u of opts.undefines ?? []) lines.push(`#undef ${u}`);
  return `${lines.join('\n')}\n`;
}
