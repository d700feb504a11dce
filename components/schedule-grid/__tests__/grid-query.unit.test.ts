/**
 * The grid's list settings live in the URL (SPEC §10): `gridHref` writes only the settings that are
 * set, starts again from page 1 on any change but the page, and `?sort=` round-trips through
 * TanStack's sorting state.
 */
import { describe, expect, it } from 'vitest';
import { gridHref, parseSort, sortParam, type GridQuery } from '../grid-query';

const none: GridQuery = { q: '', state: '', enabled: '', outcome: '', sort: '' };
const path = '/schedulers/r1';

describe('gridHref', () => {
  it('writes only the settings that are set, the text trimmed', () => {
    expect(gridHref(path, none, {})).toBe(path);
    expect(gridHref(path, none, { q: '  nightly ' })).toBe(`${path}?q=nightly`);
    expect(gridHref(path, { q: 'nightly', state: 'active', enabled: 'false', outcome: 'timed_out', sort: '-next_fire' }, {})).toBe(`${path}?q=nightly&state=active&enabled=false&outcome=timed_out&sort=-next_fire`);
  });

  it('any change but the page goes back to page 1; page 1 is not written', () => {
    const current: GridQuery = { ...none, state: 'active' };
    expect(gridHref(path, current, { page: 3 })).toBe(`${path}?state=active&page=3`);
    expect(gridHref(path, current, { page: 1 })).toBe(`${path}?state=active`);
    expect(gridHref(path, current, { enabled: 'true' })).toBe(`${path}?state=active&enabled=true`);
    expect(gridHref(path, { ...current, page: undefined } as GridQuery, { outcome: 'failed', page: undefined })).toBe(`${path}?state=active&outcome=failed`);
    expect(gridHref(path, current, { q: '', state: '', enabled: '' })).toBe(path);
  });
});

describe('sort', () => {
  it('?sort= ↔ sorting state', () => {
    expect(parseSort('-next_fire')).toEqual([{ id: 'next_fire', desc: true }]);
    expect(parseSort('name')).toEqual([{ id: 'name', desc: false }]);
    expect(parseSort('')).toEqual([]);
    expect(parseSort('name;drop')).toEqual([]);
    expect(sortParam([{ id: 'next_fire', desc: true }])).toBe('-next_fire');
    expect(sortParam([{ id: 'timezone', desc: false }])).toBe('timezone');
    expect(sortParam([])).toBe('');
  });
});
