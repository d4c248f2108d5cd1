import { createHash } from 'node:crypto';

/**
 * A HyperLogLog sketch over the person hashes, which are already uniform HMACs, so no second hash is needed.
 * Registers merge by maximum, so days merge into a period and a person added twice changes nothing.
 * Ertl's 2017 estimator needs no correction tables; the standard error is 1.04 / √16,384 = 0.81 %.
 */

const P = 14;
/** 16,384. */
export const REGISTERS = 1 << P;
/** A rank is 1 to Q + 1. */
const Q = 50;

/** About 2.5 standard errors, so nearly every estimate is inside it; a property test checks it. */
export const SKETCH_ERROR = 0.02;

/**
 * Dense is 16 KB whatever the people, so a period's read grows with its days, never with its visitors.
 * Sparse is a visitor-day's few registers; packed is a filter cell's, four base64url digits each.
 */
export type Sketch = { sparse: Record<string, number> } | { dense: string } | { packed: string };

type Spread = Exclude<Sketch, { dense: string }>;

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** So reading a dense sketch is one lookup a register. */
const RANK_OF = new Uint8Array(128);
for (let rank = 0; rank < DIGITS.length; rank += 1) RANK_OF[DIGITS.charCodeAt(rank)] = rank;

const HASH = /^[0-9a-f]{16}/;

/** A person hash is 32 hex; anything else is hashed first, so it still lands uniformly. */
export function registerOf(personHash: string): [register: number, rank: number] {
  const bits = HASH.test(personHash) ? personHash : createHash('sha256').update(personHash).digest('hex');
  const high = parseInt(bits.slice(0, 8), 16);
  const register = high >>> (32 - P);
  // 18 bits from the first word, 32 from the second.
  const rest = (BigInt(high & ((1 << (32 - P)) - 1)) << 32n) | BigInt(parseInt(bits.slice(8, 16), 16));
  const width = rest === 0n ? 0 : rest.toString(2).length;
  return [register, Q - width + 1];
}

/** Sparse registers take the higher of two ranks, so adding a person twice changes nothing. */
export function raiseRegisters(into: Record<string, number>, more: Record<string, number>): Record<string, number> {
  for (const [register, rank] of Object.entries(more)) if ((into[register] ?? 0) < rank) into[register] = rank;
  return into;
}

/** One person added to sparse registers. */
export function addPerson(registers: Record<string, number>, personHash: string): Record<string, number> {
  const [register, rank] = registerOf(personHash);
  return raiseRegisters(registers, { [register]: rank });
}

export function sketchOf(personHashes: Iterable<string>): Record<string, number> {
  const registers: Record<string, number> = {};
  for (const hash of personHashes) addPerson(registers, hash);
  return registers;
}

/** Each register a packed or sparse sketch sets, with its rank. */
function eachSet(sketch: Spread, visit: (register: number, rank: number) => void): void {
  if ('packed' in sketch) {
    const { packed } = sketch;
    for (let at = 0; at + 4 <= packed.length; at += 4) {
      const digit = (i: number) => RANK_OF[packed.charCodeAt(at + i) & 127]!;
      visit((digit(0) << 8) | (digit(1) << 2) | (digit(2) >> 4), ((digit(2) & 15) << 2) | (digit(3) >> 4));
    }
    return;
  }
  for (const [register, rank] of Object.entries(sketch.sparse)) visit(Number(register), rank);
}

function mergeInto(into: Uint8Array, sketch: Sketch): void {
  if ('dense' in sketch) {
    const { dense } = sketch;
    for (let i = 0; i < REGISTERS; i += 1) {
      const rank = RANK_OF[dense.charCodeAt(i) & 127]!;
      if (rank > into[i]!) into[i] = rank;
    }
    return;
  }
  eachSet(sketch, (register, rank) => {
    if (rank > into[register]!) into[register] = rank;
  });
}

/** So writing a dense sketch is one lookup a register and one string. */
const CODE_OF = Uint8Array.from(DIGITS, (digit) => digit.charCodeAt(0));

/** A rollup keeps it dense, or empty. */
function compact(registers: Uint8Array): Sketch {
  const codes = new Uint8Array(REGISTERS);
  let set = 0;
  for (let i = 0; i < REGISTERS; i += 1) {
    set |= registers[i]!;
    codes[i] = CODE_OF[registers[i]!]!;
  }
  if (set === 0) return { sparse: {} };
  return { dense: Buffer.from(codes.buffer).toString('latin1') };
}

type Mergeable = Sketch | Record<string, number> | undefined;

const asSketch = (sketch: Sketch | Record<string, number>): Sketch =>
  'dense' in sketch || 'sparse' in sketch || 'packed' in sketch ? (sketch as Sketch) : { sparse: sketch };

function mergedRegisters(sketches: ReadonlyArray<Mergeable>): Uint8Array {
  const registers = new Uint8Array(REGISTERS);
  for (const sketch of sketches) if (sketch !== undefined) mergeInto(registers, asSketch(sketch));
  return registers;
}

/** The 'A' of rank 0. */
const UNSET = 65;

/** The sketches given, dense apart from the rest. */
function byForm(sketches: ReadonlyArray<Mergeable>): { dense: Array<{ dense: string }>; spread: Spread[] } {
  const dense: Array<{ dense: string }> = [];
  const spread: Spread[] = [];
  for (const given of sketches) {
    if (given === undefined) continue;
    const sketch = asSketch(given);
    if ('dense' in sketch) dense.push(sketch);
    else spread.push(sketch);
  }
  return { dense, spread };
}

/** Raises a dense sketch's codes to the registers the others set; answers whether any rose. */
function raised(codes: Buffer, spread: readonly Spread[]): boolean {
  let rose = false;
  for (const sketch of spread)
    eachSet(sketch, (register, rank) => {
      if (rank <= RANK_OF[codes[register]! & 127]!) return;
      codes[register] = CODE_OF[rank]!;
      rose = true;
    });
  return rose;
}

/**
 * The one dense sketch among them, when it has more than `least` registers set, and a few registers more (a day's people
 * into a period): its string is patched, not spread out and packed again. Null otherwise.
 */
function patched({ dense, spread }: ReturnType<typeof byForm>, least: number): Sketch | null {
  if (dense.length !== 1) return null;
  const codes = Buffer.from(dense[0]!.dense, 'latin1');
  let set = 0;
  for (let i = 0; i < REGISTERS && set <= least; i += 1) if (codes[i] !== UNSET) set += 1;
  if (set <= least) return null;
  raised(codes, spread);
  return { dense: codes.toString('latin1') };
}

export function mergeSketches(...sketches: ReadonlyArray<Mergeable>): Sketch {
  const forms = byForm(sketches);
  if (forms.dense.length === 0) {
    // Only the registers they set are written into an unset dense string: no walk of all 16,384.
    const codes = Buffer.alloc(REGISTERS, UNSET);
    return raised(codes, forms.spread) ? { dense: codes.toString('latin1') } : { sparse: {} };
  }
  // An empty dense sketch is never kept (compact makes it sparse), so only one with a register set is patched.
  return patched(forms, 0) ?? compact(mergedRegisters(sketches));
}

/** Four characters each, so past this the dense form is smaller. */
const PACKED_MOST = REGISTERS / 4;

const EVERY_REGISTER = Array.from({ length: REGISTERS }, (_, i) => i);

/** The registers the sketches may set, in order: only their own while none is dense, so a small cell skips the other 16,000. */
function setOrder(sketches: ReadonlyArray<Mergeable>): readonly number[] {
  const touched: number[] = [];
  for (const given of sketches) {
    if (given === undefined) continue;
    const sketch = asSketch(given);
    if ('dense' in sketch) return EVERY_REGISTER;
    eachSet(sketch, (register) => touched.push(register));
    if (touched.length > PACKED_MOST) return EVERY_REGISTER;
  }
  return [...new Set(touched)].sort((a, b) => a - b);
}

/** Kept packed while few registers are set, so a filter cell of a few people stays a few bytes. */
export function mergeKept(...sketches: ReadonlyArray<Mergeable>): Sketch {
  // A dense sketch past the packed form's size stays dense whatever is merged into it.
  const dense = patched(byForm(sketches), PACKED_MOST);
  if (dense !== null) return dense;
  // Merged once and packed from the registers, never written dense and read back.
  const registers = mergedRegisters(sketches);
  const codes: number[] = [];
  for (const i of setOrder(sketches)) {
    if (codes.length > PACKED_MOST * 4) break;
    const rank = registers[i]!;
    if (rank === 0) continue;
    codes.push(CODE_OF[i >> 8]!, CODE_OF[(i >> 2) & 63]!, CODE_OF[((i & 3) << 4) | (rank >> 2)]!, CODE_OF[(rank & 3) << 4]!);
  }
  if (codes.length === 0) return { sparse: {} };
  return codes.length <= PACKED_MOST * 4 ? { packed: String.fromCharCode(...codes) } : compact(registers);
}

const sigma = (x: number): number => {
  if (x === 1) return Number.POSITIVE_INFINITY;
  let y = 1;
  let z = x;
  let before: number;
  do {
    x *= x;
    before = z;
    z += x * y;
    y += y;
  } while (z !== before);
  return z;
};

const tau = (x: number): number => {
  if (x === 0 || x === 1) return 0;
  let y = 1;
  let z = 1 - x;
  let before: number;
  do {
    x = Math.sqrt(x);
    before = z;
    y *= 0.5;
    z -= (1 - x) ** 2 * y;
  } while (z !== before);
  return z / 3;
};

/** A sparse or packed sketch is read entry by entry, never spread out. */
function histogramOf(sketch: Sketch | undefined): number[] {
  const counts = new Array<number>(Q + 2).fill(0);
  if (sketch === undefined) {
    counts[0] = REGISTERS;
    return counts;
  }
  if ('dense' in sketch) {
    const { dense } = sketch;
    for (let i = 0; i < REGISTERS; i += 1) counts[RANK_OF[dense.charCodeAt(i) & 127]!]! += 1;
    return counts;
  }
  const ranks = new Map<number, number>();
  eachSet(sketch, (register, rank) => ranks.set(register, Math.max(ranks.get(register) ?? 0, rank)));
  let set = 0;
  for (const rank of ranks.values())
    if (rank > 0) {
      counts[rank]! += 1;
      set += 1;
    }
  counts[0] = REGISTERS - set;
  return counts;
}

/** Exactly 0 for an empty sketch. */
export function estimate(sketch: Sketch | undefined): number {
  const counts = histogramOf(sketch);
  if (counts[0] === REGISTERS) return 0;
  let z = REGISTERS * tau(1 - counts[Q + 1]! / REGISTERS);
  for (let k = Q; k >= 1; k -= 1) z = 0.5 * (z + counts[k]!);
  z += REGISTERS * sigma(counts[0]! / REGISTERS);
  return Math.round(REGISTERS ** 2 / (2 * Math.LN2) / z);
}
