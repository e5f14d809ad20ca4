/** A question of kiosk_survey_results. */
export interface QuestionResult {
  id: string;
  position: number;
  prompt: string;
  kind: 'single' | 'multiple' | 'text';
  choices: string[];
  answers_count: number;
  choice_counts: Record<string, number>;
  latest_text_answers: string[];
}

export interface ChoiceBar {
  choice: string;
  answers: number;
  /** Share of the people who answered the question, 0–100, whole percent. */
  percent: number;
}

/**
 * A choice question's bars in the order the question offers its choices. A multiple-choice
 * question's percentages may add up to more than 100: each counts the people who ticked it.
 */
export function choiceBars(question: QuestionResult): ChoiceBar[] {
  return question.choices.map((choice) => {
    const answers = question.choice_counts[choice] ?? 0;
    const percent = question.answers_count
      ? Math.round((answers / question.answers_count) * 100)
      : 0;
    return { choice, answers, percent };
  });
}
