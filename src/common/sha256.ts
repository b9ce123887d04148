/**
 * SHA-256, as FIPS 180-4 defines it. Pure: no import.
 *
 * Written here, not taken from a library, for the page's start: lib0's
 * SHA-256 came as a file of its own that the page fetched before the tools
 * were registered (1.2 KB gzipped, with the helpers it imports), where this
 * is about half of that inside our own chunk (docs/benchmarks.md, "SHA-256
 * of our own", with its speed against lib0's). tests/common/sha256.spec.ts
 * checks it against Node's crypto at every length around a block's edges
 * and on random texts.
 */

/**
 * The round constants and the initial hash value, made from their
 * definition the first time a hash is taken: the first 32 bits of the
 * fractional parts of the cube roots of the first 64 primes, and of the
 * square roots of the first 8. Integer roots of BigInts give them exactly,
 * in every engine (floating-point cube roots are not correctly rounded).
 * Beside them, `w`: the message schedule's buffer, not a constant, made
 * once with them and reused by every hash.
 */
let constants: { k: Int32Array; h: Int32Array; w: Int32Array } | null = null;

/** floor(root(n) × 2^32) mod 2^32, for the square (2) or cube (3) root. */
function rootBits(n: number, degree: 2 | 3): number {
  const power = BigInt(degree);
  const target = BigInt(n) << (32n * power);
  // the largest x with x^degree <= target; root(311) < 8, so x < 2^35
  let low = 0n;
  let high = 1n << 35n;
  while (low < high) {
    const middle = (low + high + 1n) >> 1n;
    if (middle ** power <= target) {
      low = middle;
    } else {
      high = middle - 1n;
    }
  }
  return Number(low & 0xffffffffn);
}

function makeConstants(): { k: Int32Array; h: Int32Array; w: Int32Array } {
  const primes: number[] = [];
  for (let n = 2; primes.length < 64; n++) {
    if (primes.every(prime => n % prime)) {
      primes.push(n);
    }
  }
  return {
    k: Int32Array.from(primes, prime => rootBits(prime, 3)),
    h: Int32Array.from(primes.slice(0, 8), prime => rootBits(prime, 2)),
    // the message schedule, reused: a hash is taken in one go
    w: new Int32Array(64)
  };
}

function rotate(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}

/** One 64-byte block (its 16 words first in `w`) into `hash`. */
function compress(hash: Int32Array, w: Int32Array, k: Int32Array): void {
  for (let t = 16; t < 64; t++) {
    const x = w[t - 15];
    const y = w[t - 2];
    w[t] =
      (rotate(y, 17) ^ rotate(y, 19) ^ (y >>> 10)) +
      w[t - 7] +
      (rotate(x, 7) ^ rotate(x, 18) ^ (x >>> 3)) +
      w[t - 16];
  }
  let a = hash[0];
  let b = hash[1];
  let c = hash[2];
  let d = hash[3];
  let e = hash[4];
  let f = hash[5];
  let g = hash[6];
  let h = hash[7];
  for (let t = 0; t < 64; t++) {
    const t1 =
      (h +
        (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) +
        ((e & f) ^ (~e & g)) +
        k[t] +
        w[t]) |
      0;
    const t2 =
      ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) +
        ((a & b) ^ (a & c) ^ (b & c))) |
      0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  hash[0] += a;
  hash[1] += b;
  hash[2] += c;
  hash[3] += d;
  hash[4] += e;
  hash[5] += f;
  hash[6] += g;
  hash[7] += h;
}

/** The SHA-256 digest (32 bytes) of `data`. */
export function sha256(data: Uint8Array): Uint8Array {
  const { k, h: initial, w } = (constants ??= makeConstants());
  const length = data.length;
  // the message, a 1 bit, zeros, and its length in bits as 64 bits, in
  // big-endian 32-bit words, padded to whole 64-byte blocks
  const words = new Int32Array((((length + 8) >> 6) + 1) * 16);
  const whole = length >> 2;
  for (let i = 0; i < whole; i++) {
    const j = i * 4;
    words[i] =
      (data[j] << 24) | (data[j + 1] << 16) | (data[j + 2] << 8) | data[j + 3];
  }
  for (let i = whole * 4; i < length; i++) {
    words[i >> 2] |= data[i] << (24 - (i & 3) * 8);
  }
  words[length >> 2] |= 0x80 << (24 - (length & 3) * 8);
  words[words.length - 2] = length / 0x20000000;
  words[words.length - 1] = length * 8;

  const hash = initial.slice();
  for (let block = 0; block < words.length; block += 16) {
    for (let t = 0; t < 16; t++) {
      w[t] = words[block + t];
    }
    compress(hash, w, k);
  }
  const digest = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    digest[i] = hash[i >> 2] >>> (24 - (i & 3) * 8);
  }
  return digest;
}
