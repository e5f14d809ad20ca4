import { describe, expect, it } from 'vitest';
import {
  type BuilderData,
  draftErrors,
  draftsFromRoutes,
  hasErrors,
  type DraftCondition,
  type DraftRule,
  moveDraft,
  newDraftCondition,
  newDraftRule,
  operationsFor,
  saveArgs,
  testRoutes,
} from './routeBuilder.ts';

const DATA: BuilderData = {
  values: [
    {
      id: 'country',
      name: 'Country',
      type: 'string',
      values: null,
      custom_values: true,
      is_assoc: false,
      argument: null,
    },
    {
      id: 'clicks',
      name: 'Clicks',
      type: 'number',
      values: null,
      custom_values: true,
      is_assoc: false,
      argument: null,
    },
    {
      id: 'query',
      name: 'Query parameter',
      type: 'string',
      values: null,
      custom_values: true,
      is_assoc: false,
      argument: 'parameter',
    },
  ],
  conditions: [
    { id: 'if', name: 'If', has_operations: true },
    { id: 'always', name: 'Always', has_operations: false },
  ],
  operations: [
    { id: 'equals', name: 'equals', types: ['string', 'number'], support_list: false },
    { id: 'in', name: 'is one of', types: ['string'], support_list: true },
    { id: 'greater_than', name: 'is greater than', types: ['number'], support_list: false },
  ],
  urls_conditions: [{ id: 'all', name: 'All' }],
};

/** A rule going to `url` when each of the conditions (patches of a new one) holds. */
function rule(url: string, ...conditions: Partial<DraftCondition>[]): DraftRule {
  return {
    ...newDraftRule(),
    url,
    conditions: conditions.map((patch) => ({ ...newDraftCondition(), ...patch })),
  };
}

const de = rule('https://example.de/', { operands: 'DE' });
const atCh = rule('https://example.at/', { operation: 'in', operands: 'AT, CH' });

describe('the route builder model', () => {
  it('tests a sample visitor with the redirector’s evaluator, in order', () => {
    const sample = { country: 'de', device: 'desktop', language: '' };
    expect(testRoutes([de, atCh], DATA, sample, 'https://example.com/')).toEqual({
      index: 0,
      url: 'https://example.de/',
    });
    expect(
      testRoutes([de, atCh], DATA, { ...sample, country: 'CH' }, 'https://example.com/'),
    ).toEqual({
      index: 1,
      url: 'https://example.at/',
    });
    expect(
      testRoutes([de, atCh], DATA, { ...sample, country: 'FR' }, 'https://example.com/'),
    ).toEqual({
      index: null,
      url: 'https://example.com/',
    });
  });

  it('saves the rules in order, operands split, no operation where the condition takes none', () => {
    const always = rule('https://x.example/', { condition: 'always' });
    expect(saveArgs(moveDraft([de, atCh, always], 1, -1), DATA)).toEqual([
      {
        url: 'https://example.at/',
        match: 'all',
        rules: [
          {
            value: 'country',
            condition: 'if',
            operation: 'in',
            operands: ['AT', 'CH'],
            argument: null,
          },
        ],
      },
      {
        url: 'https://example.de/',
        match: 'all',
        rules: [
          {
            value: 'country',
            condition: 'if',
            operation: 'equals',
            operands: ['DE'],
            argument: null,
          },
        ],
      },
      {
        url: 'https://x.example/',
        match: 'all',
        rules: [
          { value: 'country', condition: 'always', operation: null, operands: [], argument: null },
        ],
      },
    ]);
  });

  it('round-trips saved routes with several conditions', () => {
    const routes = [
      {
        id: 'r1',
        url: 'https://example.de/',
        match: 'all',
        rules: [
          {
            value: 'country',
            condition: 'if',
            operation: 'equals',
            operands: ['DE'],
            argument: null,
          },
          {
            value: 'clicks',
            condition: 'if',
            operation: 'greater_than',
            operands: ['5'],
            argument: null,
          },
        ],
      },
    ];
    const drafts = draftsFromRoutes(routes);
    expect(drafts[0]?.conditions.map((condition) => condition.value)).toEqual([
      'country',
      'clicks',
    ]);
    expect(saveArgs(drafts, DATA)).toEqual([
      { url: routes[0]?.url, match: 'all', rules: routes[0]?.rules },
    ]);
  });

  it('checks what it can before the server, condition by condition', () => {
    expect(draftErrors(newDraftRule(), DATA)).toEqual({
      url: 'The URL field is required.',
      conditions: [{ operands: 'Give a value.' }],
    });
    expect(draftErrors(rule(de.url, { operands: 'DE, AT' }), DATA)).toEqual({
      conditions: [{ operands: 'Give exactly one value.' }],
    });
    expect(draftErrors({ ...de, url: 'example.de' }, DATA).url).toBe(
      'The url must be a valid URL.',
    );
    const second = draftErrors(rule(de.url, { operands: 'DE' }, { value: 'query' }), DATA);
    expect(second.conditions[1]).toEqual({
      argument: 'Name the query parameter.',
      operands: 'Give a value.',
    });
    expect(hasErrors(second)).toBe(true);
    expect(draftErrors(de, DATA)).toEqual({ conditions: [{}] });
    expect(hasErrors(draftErrors(de, DATA))).toBe(false);
  });

  it('tests several conditions as all or any of them', () => {
    const both = rule(
      'https://example.de/',
      { operands: 'DE' },
      { value: 'query', argument: 'ref', operands: 'news' },
    );
    const german = { country: 'DE', device: 'desktop', language: '' };
    // The sample has no query string, so "all" fails on the second condition and "any" holds.
    expect(testRoutes([both], DATA, german, 'https://example.com/').index).toBeNull();
    expect(testRoutes([{ ...both, match: 'any' }], DATA, german, 'https://example.com/')).toEqual({
      index: 0,
      url: 'https://example.de/',
    });
    expect(saveArgs([{ ...both, match: 'any' }], DATA)[0]?.rules).toHaveLength(2);
  });

  it('opens a saved route without rules as one that always holds', () => {
    const [draft] = draftsFromRoutes([
      { id: 'r', url: 'https://x.example/', match: 'all', rules: [] },
    ]);
    expect(draft?.conditions.map((condition) => condition.condition)).toEqual(['always']);
  });

  it('offers the operations of the value’s type', () => {
    expect(operationsFor(DATA, 'clicks').map((o) => o.id)).toEqual(['equals', 'greater_than']);
    expect(operationsFor(DATA, 'country').map((o) => o.id)).toEqual(['equals', 'in']);
  });
});
