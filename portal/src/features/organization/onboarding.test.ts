import { describe, expect, it } from 'vitest';
import {
  type OnboardingFacts,
  type OnboardingStep,
  readMarkedDone,
  remainingSteps,
  skipReason,
  writeMarkedDone,
} from './onboarding.ts';

const empty: OnboardingFacts = {
  isOwner: true,
  domainCount: 0,
  userCount: 0,
  teamCount: 0,
  otherTeamMemberCount: 0,
};
const none = new Set<OnboardingStep>();

describe('onboarding skip rules', () => {
  it('an owner of an empty organization walks every step', () => {
    expect(remainingSteps(empty, none)).toEqual(['domains', 'users', 'team', 'members', 'done']);
  });

  it('skips a step whose data already exists', () => {
    expect(skipReason('domains', { ...empty, domainCount: 1 }, none)).toBe('data_exists');
    expect(skipReason('users', { ...empty, userCount: 2 }, none)).toBe('data_exists');
    expect(skipReason('team', { ...empty, teamCount: 1 }, none)).toBe('data_exists');
    expect(skipReason('members', { ...empty, otherTeamMemberCount: 1 }, none)).toBe('data_exists');
    expect(skipReason('members', { ...empty, teamCount: 3 }, none)).toBeNull();
  });

  it('skips a step marked done in local storage', () => {
    expect(skipReason('team', empty, new Set(['team']))).toBe('marked_done');
    expect(remainingSteps(empty, new Set(['domains', 'members']))).toEqual([
      'users',
      'team',
      'done',
    ]);
  });

  it('leaves domains and invitations to the owner', () => {
    const notOwner = { ...empty, isOwner: false };
    expect(skipReason('domains', notOwner, none)).toBe('owner_only');
    expect(skipReason('users', notOwner, none)).toBe('owner_only');
    expect(remainingSteps(notOwner, none)).toEqual(['team', 'members', 'done']);
  });

  it('never skips the last step', () => {
    expect(skipReason('done', empty, new Set(['done']))).toBeNull();
  });
});

describe('marked-done storage', () => {
  it('round-trips in step order and ignores junk', () => {
    expect(writeMarkedDone(new Set(['team', 'domains']))).toBe('["domains","team"]');
    expect([...readMarkedDone('["team","nonsense",3]')]).toEqual(['team']);
    expect(readMarkedDone('{not json').size).toBe(0);
    expect(readMarkedDone('{"a":1}').size).toBe(0);
    expect(readMarkedDone(null).size).toBe(0);
  });
});
