import { describe, expect, it } from 'vitest';
import type { LinkListItem } from '../../../data/links-list-query.ts';
import {
  ALIAS_REQUIRED,
  EXPIRY_INVALID,
  fromLocalInput,
  initialEditValues,
  linkEditArgs,
  toLocalInput,
  validateLinkEdit,
} from './linkEdit.ts';

const CET = 60;
const NOW = new Date('2026-11-22T12:00:30Z');
const clock = { now: NOW, utcOffsetMinutes: CET };

function link(overrides: Partial<LinkListItem> = {}): LinkListItem {
  return {
    id: '00000000-0000-4000-8000-000000002101',
    alias: 'spring-launch',
    domain: 'pat-links.localhost',
    longUrl: 'https://pat.example.com/launch',
    status: 'active',
    expiresAt: null,
    description: null,
    tags: ['launch', 'newsletter'],
    createdAt: '2026-10-01T10:00:00Z',
    accountId: 'account-1',
    organizationId: null,
    createdBy: 'user-1',
    ...overrides,
  };
}

describe('local expiry times', () => {
  it('shows an instant in the user local time and reads it back', () => {
    expect(toLocalInput('2026-12-01T09:30:00Z', CET)).toBe('2026-12-01T10:30');
    expect(fromLocalInput('2026-12-01T10:30', CET)?.toISOString()).toBe('2026-12-01T09:30:00.000Z');
    expect(toLocalInput('2026-12-01T09:30:00Z', -300)).toBe('2026-12-01T04:30');
  });

  it('refuses what is not a wall-clock time', () => {
    expect(fromLocalInput('', CET)).toBeNull();
    expect(fromLocalInput('2026-02-30T10:00', CET)).toBeNull();
    expect(fromLocalInput('2026-12-01 10:30', CET)).toBeNull();
  });
});

describe('validateLinkEdit', () => {
  it('accepts the link as it is', () => {
    expect(validateLinkEdit(initialEditValues(link(), CET), link(), clock)).toEqual({});
  });

  it('needs an alias of letters, digits, dashes and underscores', () => {
    const values = initialEditValues(link(), CET);
    expect(validateLinkEdit({ ...values, alias: '  ' }, link(), clock)).toEqual({
      alias: ALIAS_REQUIRED,
    });
    expect(validateLinkEdit({ ...values, alias: 'no spaces' }, link(), clock)).toEqual({
      alias: 'The alias may only contain letters, numbers, dashes and underscores.',
    });
  });

  it('needs a web address as destination', () => {
    const values = initialEditValues(link(), CET);
    expect(validateLinkEdit({ ...values, url: '' }, link(), clock).url).toBe(
      'The URL field is required.',
    );
    expect(validateLinkEdit({ ...values, url: 'ftp://x' }, link(), clock).url).toBe(
      'The url must be a valid URL.',
    );
  });

  it('reports tag errors per index of the list sent, with the spec messages', () => {
    const values = {
      ...initialEditValues(link(), CET),
      tags: ['ok', '', 'a', 'OK', 'x'.repeat(46)],
    };
    expect(validateLinkEdit(values, link(), clock)).toEqual({
      'tags.1': 'The tag must be at least 2 characters.',
      'tags.2': 'The tag has already been taken.',
      'tags.3': 'The tag must not be greater than 45 characters.',
    });
  });

  it('keeps a new expiry between 5 minutes and 5 years ahead', () => {
    const values = initialEditValues(link(), CET);
    // 12:00:30 UTC is 13:00 CET: 13:04 is too soon, 13:06 is fine.
    expect(validateLinkEdit({ ...values, expiresAt: '2026-11-22T13:04' }, link(), clock)).toEqual({
      expires_at: 'The expiry must be at least 5 minutes from now.',
    });
    expect(validateLinkEdit({ ...values, expiresAt: '2026-11-22T13:06' }, link(), clock)).toEqual(
      {},
    );
    expect(validateLinkEdit({ ...values, expiresAt: '2031-11-23T10:00' }, link(), clock)).toEqual({
      expires_at: 'The expiry must be within 5 years.',
    });
    expect(validateLinkEdit({ ...values, expiresAt: '2026-13-01T10:00' }, link(), clock)).toEqual({
      expires_at: EXPIRY_INVALID,
    });
  });

  it('does not re-check an expiry the link already has, even a past one', () => {
    const expired = link({ expiresAt: '2026-11-20T10:00:00Z' });
    expect(validateLinkEdit(initialEditValues(expired, CET), expired, clock)).toEqual({});
  });
});

describe('linkEditArgs', () => {
  it('sends nothing when nothing changed (tag order and case do not count)', () => {
    const values = { ...initialEditValues(link(), CET), tags: ['Newsletter', 'launch'] };
    expect(linkEditArgs(values, link(), CET)).toBeNull();
  });

  it('sends only the parts that changed', () => {
    const values = {
      ...initialEditValues(link(), CET),
      alias: ' spring-2027 ',
      tags: ['launch', 'Q4 campaign'],
    };
    expect(linkEditArgs(values, link(), CET)).toEqual({
      p_alias_id: link().id,
      p_alias: 'spring-2027',
      p_tags: ['launch', 'q4campaign'],
    });
  });

  it('sends an empty tag list to remove every tag', () => {
    const values = { ...initialEditValues(link(), CET), tags: [] };
    expect(linkEditArgs(values, link(), CET)).toEqual({ p_alias_id: link().id, p_tags: [] });
  });

  it('sends a new destination, a new expiry in UTC, or the removal of the expiry', () => {
    const withExpiry = link({ expiresAt: '2026-12-24T17:00:00Z' });
    const values = initialEditValues(withExpiry, CET);
    expect(linkEditArgs({ ...values, url: 'https://pat.example.com/v2' }, withExpiry, CET)).toEqual(
      {
        p_alias_id: withExpiry.id,
        p_url: 'https://pat.example.com/v2',
      },
    );
    expect(linkEditArgs({ ...values, expiresAt: '2026-12-31T23:30' }, withExpiry, CET)).toEqual({
      p_alias_id: withExpiry.id,
      p_expires_at: '2026-12-31T22:30:00.000Z',
    });
    expect(linkEditArgs({ ...values, expiresAt: '' }, withExpiry, CET)).toEqual({
      p_alias_id: withExpiry.id,
      p_remove_expiry: true,
    });
  });

  it('sends a description only for links made in an organization', () => {
    const personal = link();
    expect(
      linkEditArgs({ ...initialEditValues(personal, CET), description: 'Deck' }, personal, CET),
    ).toBeNull();
    const inOrganization = link({ organizationId: 'org-1', description: 'Board deck' });
    const values = initialEditValues(inOrganization, CET);
    expect(linkEditArgs({ ...values, description: ' Q3 deck ' }, inOrganization, CET)).toEqual({
      p_alias_id: inOrganization.id,
      p_description: 'Q3 deck',
    });
    expect(linkEditArgs({ ...values, description: '' }, inOrganization, CET)).toEqual({
      p_alias_id: inOrganization.id,
      p_description: '',
    });
  });
});
