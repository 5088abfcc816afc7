// XXH3-64 (seed 0, the default secret), written from the xxHash specification: ld.lld groups the
// deduplicated pieces of a mergeable section into 32 shards by this hash, and we lay them out
// the same way so that our .rodata is byte for byte lld's. BigInt: the inputs are short strings.

const M64 = (1n << 64n) - 1n;
const P32_1 = 0x9e3779b1n, P32_2 = 0x85ebca77n, P32_3 = 0xc2b2ae3dn;
const P64_1 = 0x9e3779b185ebca87n, P64_2 = 0xc2b2ae3d27d4eb4fn, P64_3 = 0x165667b19e3779f9n;
const P64_4 = 0x85ebca77c2b2ae63n, P64_5 = 0x27d4eb2f165667c5n;
const PMX1 = 0x165667919e3779f9n, PMX2 = 0x9fb21c651e98df25n;

/** The default 192-byte secret (kSecret). */
const SECRET = new Uint8Array([
  0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
  0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
  0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
  0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
  0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
  0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
  0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
  0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
  0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
  0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
  0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
  0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
]);

function le64(b: Uint8Array, at: number): bigint {
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(b[at + i]);
  return v;
}
const le32 = (b: Uint8Array, at: number) => BigInt((b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0);
const mul = (a: bigint, b: bigint) => (a * b) & M64;
const rotl = (v: bigint, r: bigint) => ((v << r) | (v >> (64n - r))) & M64;
const swap64 = (v: bigint) => {
  let r = 0n;
  for (let i = 0n; i < 8n; i++) r = (r << 8n) | ((v >> (8n * i)) & 0xffn);
  return r;
};
function fold(a: bigint, b: bigint): bigint {
  const p = a * b;
  return (p ^ (p >> 64n)) & M64;
}
function avalanche(h: bigint): bigint {
  h ^= h >> 37n;
  h = mul(h, PMX1);
  return h ^ (h >> 32n);
}
function avalanche64(h: bigint): bigint {
  h ^= h >> 33n;
  h = mul(h, P64_2);
  h ^= h >> 29n;
  h = mul(h, P64_3);
  return h ^ (h >> 32n);
}
const mix16 = (b: Uint8Array, at: number, s: number) => fold(le64(b, at) ^ le64(SECRET, s), le64(b, at + 8) ^ le64(SECRET, s + 8));

/** XXH3_64bits(bytes) with seed 0. */
export function xxh3(b: Uint8Array): bigint {
  const len = b.length, L = BigInt(len);
  if (len === 0) return avalanche64(le64(SECRET, 56) ^ le64(SECRET, 64));
  if (len <= 3) {
    const combined = BigInt(((b[0] << 16) | (b[len >> 1] << 24) | b[len - 1] | (len << 8)) >>> 0);
    return avalanche64(combined ^ (le32(SECRET, 0) ^ le32(SECRET, 4)));
  }
  if (len <= 8) {
    const input64 = le32(b, len - 4) + (le32(b, 0) << 32n);
    let h = input64 ^ (le64(SECRET, 8) ^ le64(SECRET, 16));
    h ^= rotl(h, 49n) ^ rotl(h, 24n);
    h = mul(h, PMX2);
    h ^= (h >> 35n) + L;
    h = mul(h, PMX2);
    return h ^ (h >> 28n);
  }
  if (len <= 16) {
    const lo = le64(b, 0) ^ (le64(SECRET, 24) ^ le64(SECRET, 32));
    const hi = le64(b, len - 8) ^ (le64(SECRET, 40) ^ le64(SECRET, 48));
    return avalanche((L + swap64(lo) + hi + fold(lo, hi)) & M64);
  }
  if (len <= 128) {
    let acc = mul(L, P64_1);
    if (len > 32) {
      if (len > 64) {
        if (len > 96) acc += mix16(b, 48, 96) + mix16(b, len - 64, 112);
        acc += mix16(b, 32, 64) + mix16(b, len - 48, 80);
      }
      acc += mix16(b, 16, 32) + mix16(b, len - 32, 48);
    }
    acc += mix16(b, 0, 0) + mix16(b, len - 16, 16);
    return avalanche(acc & M64);
  }
  if (len <= 240) {
    let acc = mul(L, P64_1);
    for (let i = 0; i < 8; i++) acc += mix16(b, 16 * i, 16 * i);
    acc = avalanche(acc & M64);
    for (let i = 8; i < Math.floor(len / 16); i++) acc += mix16(b, 16 * i, 16 * (i - 8) + 3);
    acc += mix16(b, len - 16, 136 - 17);
    return avalanche(acc & M64);
  }
  return hashLong(b);
}

function hashLong(b: Uint8Array): bigint {
  const acc = [P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1];
  const stripe = (at: number, s: number) => {
    for (let i = 0; i < 8; i++) {
      const v = le64(b, at + 8 * i), k = v ^ le64(SECRET, s + 8 * i);
      acc[i ^ 1] = (acc[i ^ 1] + v) & M64;
      acc[i] = (acc[i] + (k & 0xffffffffn) * (k >> 32n)) & M64;
    }
  };
  const stripesPerBlock = (SECRET.length - 64) / 8, blockLen = 64 * stripesPerBlock;
  const blocks = Math.floor((b.length - 1) / blockLen);
  for (let n = 0; n < blocks; n++) {
    for (let s = 0; s < stripesPerBlock; s++) stripe(n * blockLen + 64 * s, 8 * s);
    for (let i = 0; i < 8; i++) {
      let a = acc[i];
      a ^= a >> 47n;
      a ^= le64(SECRET, SECRET.length - 64 + 8 * i);
      acc[i] = mul(a, P32_1);
    }
  }
  const stripes = Math.floor((b.length - 1 - blocks * blockLen) / 64);
  for (let s = 0; s < stripes; s++) stripe(blocks * blockLen + 64 * s, 8 * s);
  stripe(b.length - 64, SECRET.length - 64 - 7);
  let r = mul(BigInt(b.length), P64_1);
  for (let i = 0; i < 4; i++) r += fold(acc[2 * i] ^ le64(SECRET, 11 + 16 * i), acc[2 * i + 1] ^ le64(SECRET, 11 + 16 * i + 8));
  return avalanche(r & M64);
}
