/** An IAB stack as the GVL declares it. */
export interface GvlStack {
  id: number;
  purposes: number[];
  specialFeatures: number[];
}

/**
 * The stacks the first layer shows (TCF policy: stacks may replace the purposes and special features they
 * contain on the first layer, and no purpose or special feature may appear twice). A demanding publisher wants
 * the shortest first layer that is still complete, so: among the stacks whose purposes are all used by the
 * offered vendors and whose special features are all asked for, the disjoint combination that covers the most
 * items, then the one with the fewest stacks, then the lowest ids. A stack of a single item summarises nothing
 * and is never picked. Exact, not greedy (greedy picks the largest stack first and can cover less): a dynamic
 * programme over the subsets of the at most 11 purposes + 2 special features, 8,192 states.
 */
export function pickStacks(stacks: readonly GvlStack[], purposes: readonly number[], specialFeatures: readonly number[]): number[] {
  // Bit i < 16 is purpose i+1 (the GVL has 11), bit 16+j is special feature j+1 (2). Dense so the table stays small.
  const bits = [...purposes.map((p) => p - 1), ...specialFeatures.map((f) => 15 + f)].filter((b) => b >= 0 && b < 24);
  const index = new Map(bits.map((b, i) => [b, i]));
  const size = 1 << index.size;
  const maskOf = (s: GvlStack): number | undefined => {
    let m = 0;
    for (const b of [...s.purposes.map((p) => p - 1), ...s.specialFeatures.map((f) => 15 + f)]) {
      const i = index.get(b);
      if (i === undefined) return undefined;
      m |= 1 << i;
    }
    return m;
  };
  const candidates = [...stacks]
    .sort((a, b) => a.id - b.id)
    .map((s) => ({ id: s.id, mask: maskOf(s) }))
    .filter((s): s is { id: number; mask: number } => s.mask !== undefined && popcount(s.mask) >= 2);
  // best[mask]: the stack ids that cover exactly `mask`, fewest first, then lowest ids (candidates are in id order).
  const best: (number[] | undefined)[] = new Array(size);
  best[0] = [];
  for (let mask = 0; mask < size; mask++) {
    const here = best[mask];
    if (!here) continue;
    for (const s of candidates) {
      if (mask & s.mask) continue;
      const next = mask | s.mask;
      const ids = [...here, s.id].sort((a, b) => a - b);
      if (better(ids, best[next])) best[next] = ids;
    }
  }
  let pick: number[] = [];
  let covered = 0;
  for (let mask = 0; mask < size; mask++) {
    const ids = best[mask];
    if (!ids) continue;
    const n = popcount(mask);
    if (n > covered || (n === covered && better(ids, pick))) [pick, covered] = [ids, n];
  }
  return pick;
}

const popcount = (n: number) => {
  let c = 0;
  for (let m = n; m; m &= m - 1) c++;
  return c;
};

/** Fewer stacks, then the lexicographically lower ids. */
function better(a: number[], b: number[] | undefined): boolean {
  if (!b) return true;
  if (a.length !== b.length) return a.length < b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}
