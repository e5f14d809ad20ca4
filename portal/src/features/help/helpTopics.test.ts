import { describe, expect, it } from 'vitest';
import { paths } from '../../routes/paths.ts';
import { HELP_TOPICS, searchHelp } from './helpTopics.ts';

describe('help topics', () => {
  it('links only to routes that exist, and never to a route with parameters', () => {
    for (const topic of HELP_TOPICS)
      for (const { link } of topic.questions)
        if (link) expect(paths[link.route], link.route).toMatch(/^\/app(\/[a-z-/]*)?$/);
  });

  it('finds questions holding every word, in question, answer or topic, in any case', () => {
    const found = searchHelp(HELP_TOPICS, 'TXT cname');
    expect(found.map((topic) => topic.title)).toEqual(['Branded domains']);
    expect(found[0]!.questions.map((q) => q.question)).toEqual(['How do I use my own domain?']);
    expect(searchHelp(HELP_TOPICS, 'Invoice').map((topic) => topic.title)).toEqual([
      'Plans and billing',
    ]);
  });

  it('shows everything for an empty query and nothing for words found nowhere', () => {
    expect(searchHelp(HELP_TOPICS, '  ')).toHaveLength(HELP_TOPICS.length);
    expect(searchHelp(HELP_TOPICS, 'zebra')).toEqual([]);
  });
});
