import { describe, expect, it } from 'vitest';
import { filterTree } from '../../app/grid/treeRows';
import { ancestorsOf, parentsOf, toggleGrant } from './treeNodes';

type N = { id: number; code: string; children: N[] };
const n = (id: number, code: string, children: N[] = []): N => ({ id, code, children });
// global > go_screen; sys > (sys:user > sys:user:add, sys:user:query), sys:log
const TREE: N[] = [
  n(1, 'global', [n(2, 'go_screen')]),
  n(3, 'sys', [n(4, 'sys:user', [n(5, 'sys:user:add'), n(6, 'sys:user:query')]), n(7, 'sys:log')]),
];

describe('menu authorisation ticks', () => {
  it('ticking a button ticks the menus above it, and nothing else', () => {
    expect([...toggleGrant(TREE, new Set(), 5, true)].sort()).toEqual([3, 4, 5]);
    expect([...toggleGrant(TREE, new Set([7]), 2, true)].sort()).toEqual([1, 2, 7]);
  });

  it('unticking a menu unticks what is below it, and keeps its parent and siblings', () => {
    expect([...toggleGrant(TREE, new Set([3, 4, 5, 6, 7]), 4, false)].sort()).toEqual([3, 7]);
  });

  it('a menu alone can be held without its buttons (a menu grants itself, not its subtree)', () => {
    expect([...toggleGrant(TREE, new Set(), 4, true)].sort()).toEqual([3, 4]);
  });

  it('an unknown id changes nothing', () => {
    expect([...toggleGrant(TREE, new Set([7]), 99, true)]).toEqual([7]);
  });

  it('knows parents and ancestors', () => {
    const parents = parentsOf(TREE);
    expect(parents.get(5)).toBe(4);
    expect(parents.get(3)).toBeNull();
    expect(ancestorsOf(6, parents)).toEqual([4, 3]);
  });

  it('filters a tree, keeping the ancestors of what matches', () => {
    expect(filterTree(TREE, (node) => node.code === 'go_screen')).toEqual([
      n(1, 'global', [n(2, 'go_screen')]),
    ]);
    expect(filterTree(TREE, (node) => node.code.includes('add'))).toEqual([
      n(3, 'sys', [n(4, 'sys:user', [n(5, 'sys:user:add')])]),
    ]);
    expect(filterTree(TREE, () => false)).toEqual([]);
  });
});
