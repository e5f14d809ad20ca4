import { describe, expect, it } from 'vitest';
import { exposedSchemasOf, firstDifference, parseArgs, postgrestVersionOf } from './gen-types.ts';

describe('gen-types arguments', () => {
  it('writes by default and checks with --check', () => {
    expect(parseArgs([])).toEqual({ check: false });
    expect(parseArgs(['--check'])).toEqual({ check: true });
  });

  it('refuses anything else by name', () => {
    expect(() => parseArgs(['--chek'])).toThrow('Unknown argument --chek');
  });
});

describe('exposedSchemasOf', () => {
  it("takes config.toml's [api] schemas", () => {
    expect(exposedSchemasOf({ api: { schemas: ['public', 'graphql_public'] } })).toEqual([
      'public',
      'graphql_public',
    ]);
  });

  it('falls back to public when the config names none', () => {
    expect(exposedSchemasOf({})).toEqual(['public']);
    expect(exposedSchemasOf({ api: { port: 54321 } })).toEqual(['public']);
  });

  it('refuses a list that is empty, not a list, or holds something that is not a schema name', () => {
    expect(() => exposedSchemasOf({ api: { schemas: [] } })).toThrow('non-empty list');
    expect(() => exposedSchemasOf({ api: { schemas: 'public' } })).toThrow('non-empty list');
    expect(() => exposedSchemasOf({ api: { schemas: ['public; drop'] } })).toThrow(
      'non-empty list',
    );
    expect(() => exposedSchemasOf({ api: 'public' })).toThrow('[api] must be a table');
  });
});

describe('postgrestVersionOf', () => {
  it('reads the PostgREST release out of the npm package version', () => {
    expect(postgrestVersionOf('v12.0.2-2')).toBe('12.0.2');
    expect(postgrestVersionOf('12.2.3')).toBe('12.2.3');
  });

  it('refuses a version it cannot read', () => {
    expect(() => postgrestVersionOf('latest')).toThrow('Cannot read the PostgREST version');
  });
});

describe('firstDifference', () => {
  it('is undefined for equal texts', () => {
    expect(firstDifference('a\nb\n', 'a\nb\n')).toBeUndefined();
  });

  it('names the first line that differs and both versions of it', () => {
    expect(firstDifference('a\nb\nc', 'a\nB\nC')).toEqual({
      line: 2,
      committed: 'b',
      generated: 'B',
    });
  });

  it('reports a missing tail as the end of one text', () => {
    expect(firstDifference('a', 'a\nb')).toEqual({
      line: 2,
      committed: undefined,
      generated: 'b',
    });
    expect(firstDifference('', 'x')).toEqual({ line: 1, committed: '', generated: 'x' });
  });
});
