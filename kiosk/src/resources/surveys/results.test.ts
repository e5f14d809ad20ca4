import { describe, expect, it } from 'vitest';
import { choiceBars, type QuestionResult } from './results.ts';

const question = (overrides: Partial<QuestionResult>): QuestionResult => ({
  id: 'q',
  position: 0,
  prompt: 'Features?',
  kind: 'multiple',
  choices: ['API', 'Tags', 'QR'],
  answers_count: 4,
  choice_counts: { API: 3, Tags: 1 },
  latest_text_answers: [],
  ...overrides,
});

describe('choiceBars', () => {
  it('keeps the question’s choice order, with zero for choices nobody picked', () => {
    expect(choiceBars(question({}))).toEqual([
      { choice: 'API', answers: 3, percent: 75 },
      { choice: 'Tags', answers: 1, percent: 25 },
      { choice: 'QR', answers: 0, percent: 0 },
    ]);
  });

  it('shows 0% for a question nobody answered yet', () => {
    expect(
      choiceBars(question({ answers_count: 0, choice_counts: {} })).map((bar) => bar.percent),
    ).toEqual([0, 0, 0]);
  });
});
