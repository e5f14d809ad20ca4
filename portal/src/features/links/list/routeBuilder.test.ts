import { describe, expect, it } from 'vitest';
import {
  type BuilderData,
  draftErrors,
  draftsFromRoutes,
  moveDraft,
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

const de = { ...newDraftRule(), operands: 'DE', url: 'https://example.de/' };
const atCh = { ...newDraftRule(), operation: 'in', operands: 'AT, CH', url: 'https://example.at/' };

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
    const always = { ...newDraftRule(), condition: 'always', url: 'https://x.example/' };
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

  it('round-trips saved routes, keeping extra conditions', () => {
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
    expect(drafts[0]?.more).toHaveLength(1);
    expect(saveArgs(drafts, DATA)).toEqual([
      { url: routes[0]?.url, match: 'all', rules: routes[0]?.rules },
    ]);
  });

  it('checks what it can before the server', () => {
    expect(draftErrors({ ...newDraftRule() }, DATA)).toEqual({
      url: 'The URL field is required.',
      operands: 'Give a value.',
    });
    expect(draftErrors({ ...de, operands: 'DE, AT' }, DATA)).toEqual({
      operands: 'Give exactly one value.',
    });
    expect(draftErrors({ ...de, url: 'example.de' }, DATA).url).toBe(
      'The url must be a valid URL.',
    );
    expect(draftErrors({ ...de, value: 'query' }, DATA).argument).toBe('Name the query parameter.');
    expect(draftErrors(de, DATA)).toEqual({});
  });

  it('offers the operations of the value’s type', () => {
    expect(operationsFor(DATA, 'clicks').map((o) => o.id)).toEqual(['equals', 'greater_than']);
    expect(operationsFor(DATA, 'country').map((o) => o.id)).toEqual(['equals', 'in']);
  });
});
