// Grouping connections by content type and traffic item, the picker's search, and the shared focus
// (hover, isolate, hide) that every plot of a run reads.
import { describe, expect, it } from 'vitest';
import type { Result, Scenario } from '@tcb-lab/sim';
import { connectionInfos, groupConnections, isolate, isShown, itemContents, noFocus, searchConnections, toggleHidden } from '../src/data/connections';

const scenario = {
  traffic: [
    { type: 'transfers', name: 'html', content: 'html' },
    { type: 'transfers', name: 'images', content: 'image' },
    { type: 'transfers', name: 'images2', content: 'image' },
    { type: 'bulk', name: 'ftp' },
    { type: 'telnet' },
  ],
} as unknown as Scenario;
const names = ['ftp', 'html#0.0', 'images#0.0', 'images2#0.0', 'html#1.0', 'images#1.0'];
const summary = { flows: names.map((name, id) => ({ id, name, item: name.split('#')[0] })) } as unknown as Result;

describe('connections grouped by content type and traffic item', () => {
  it('reads each item’s content, bulk items as ftp, unnamed items by type and position', () => {
    const c = itemContents(scenario);
    expect(c.get('html')).toBe('html');
    expect(c.get('images2')).toBe('image');
    expect(c.get('ftp')).toBe('ftp');
    expect(c.get('telnet4')).toBe('unspecified');
  });

  it('groups in order of first appearance, items inside content types', () => {
    const infos = connectionInfos([0, 1, 2, 3, 4, 5], names, summary, scenario);
    const groups = groupConnections(infos);
    expect(groups.map((g) => g.content)).toEqual(['ftp', 'html', 'image']);
    expect(groups[1].flows).toEqual([1, 4]);
    expect(groups[2].items.map((i) => [i.item, i.flows])).toEqual([
      ['images', [2, 5]],
      ['images2', [3]],
    ]);
    expect(groups[2].flows).toEqual([2, 3, 5]);
  });

  it('search needs every word somewhere in the name, item or content type', () => {
    const infos = connectionInfos([0, 1, 2, 3, 4, 5], names, summary, scenario);
    expect(searchConnections(infos, 'image #1').map((c) => c.flow)).toEqual([5]);
    expect(searchConnections(infos, 'HTML').map((c) => c.flow)).toEqual([1, 4]);
    expect(searchConnections(infos, '  ').length).toBe(6);
    expect(searchConnections(infos, 'udp')).toEqual([]);
  });
});

describe('the shared focus', () => {
  it('isolating draws only the set; isolating it again shows all', () => {
    let f = isolate(noFocus, [2, 5]);
    expect([0, 1, 2, 3, 4, 5].filter((x) => isShown(f, x))).toEqual([2, 5]);
    f = isolate(f, [5, 2]);
    expect(f.isolated).toBeNull();
    expect([0, 1, 2].every((x) => isShown(f, x))).toBe(true);
  });

  it('hiding a group hides all of it, and shows it again when all were hidden; it ends isolation', () => {
    let f = toggleHidden(noFocus, [1, 4]);
    expect(isShown(f, 1) || isShown(f, 4)).toBe(false);
    f = toggleHidden(f, [4, 5]);
    expect([isShown(f, 4), isShown(f, 5)]).toEqual([false, false]);
    f = toggleHidden(f, [1, 4]);
    expect([isShown(f, 1), isShown(f, 4), isShown(f, 5)]).toEqual([true, true, false]);
    f = toggleHidden(isolate(f, [0]), [2]);
    expect(f.isolated).toBeNull();
    expect(isShown(f, 2)).toBe(false);
  });
});
