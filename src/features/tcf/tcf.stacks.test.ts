import { describe, expect, it } from 'vitest';
import { pickStacks } from './tcf.stacks.js';

const stack = (id: number, purposes: number[], specialFeatures: number[] = []) => ({ id, purposes, specialFeatures });

describe('pickStacks', () => {
  it('finds the disjoint stacks that cover the most, where the largest stack first would cover less', () => {
    const stacks = [stack(1, [2, 3, 4]), stack(2, [2, 5]), stack(3, [3, 6]), stack(4, [4, 7])];
    expect(pickStacks(stacks, [1, 2, 3, 4, 5, 6, 7], [])).toEqual([2, 3, 4]);
  });

  it('prefers fewer stacks for the same coverage, then lower ids', () => {
    const stacks = [stack(5, [2, 3]), stack(6, [4, 5]), stack(7, [2, 3, 4, 5]), stack(8, [2, 3, 4, 5])];
    expect(pickStacks(stacks, [2, 3, 4, 5], [])).toEqual([7]);
  });

  it('never uses a stack with a purpose no vendor uses or a special feature not asked for, nor a stack of one item', () => {
    const stacks = [stack(1, [], [1, 2]), stack(2, [2, 7]), stack(3, [8]), stack(4, [9, 10])];
    expect(pickStacks(stacks, [2, 7, 8, 9], [1])).toEqual([2]);
    expect(pickStacks(stacks, [2, 7, 8, 9], [1, 2])).toEqual([1, 2]);
  });

  it('picks nothing without stacks', () => {
    expect(pickStacks([], [1, 2, 3], [1])).toEqual([]);
  });
});
