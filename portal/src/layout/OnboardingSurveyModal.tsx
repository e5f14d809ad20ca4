import { Alert, Button, Checkbox, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { useState, type FormEvent } from 'react';
import { GrowingTextarea } from '../components/GrowingTextarea.tsx';
import { LoadingFrame } from '../components/LoadingFrame.tsx';
import type { SurveySummary } from '../data/onboarding-survey-query.ts';
import { useSurveyQuestionsQuery, type SurveyQuestion } from '../data/survey-questions-query.ts';
import { useSubmitSurveyMutation, type SurveyAnswer } from '../data/survey-submit-mutation.ts';
import { ApiError } from '../data/unwrap.ts';
import { useNotify } from '../lib/servicesContext.ts';

/** The database's sentence for a refused answer (its `details`), or the generic one. */
function refusal(error: Error): string {
  const body = error instanceof ApiError ? (error.body as { details?: unknown } | null) : null;
  return typeof body?.details === 'string' ? body.details : MESSAGES.somethingWentWrong;
}

/** Empty answers are left out: the database treats a missing answer as no answer. */
function given(answer: SurveyAnswer | undefined): answer is SurveyAnswer {
  return typeof answer === 'string' ? answer.trim() !== '' : answer != null && answer.length > 0;
}

function QuestionField({
  question,
  value,
  error,
  onChange,
}: {
  question: SurveyQuestion;
  value: SurveyAnswer | undefined;
  error: string | undefined;
  onChange: (value: SurveyAnswer) => void;
}) {
  if (question.kind === 'text') {
    return (
      <GrowingTextarea
        label={question.prompt}
        withAsterisk={question.required}
        maxLength={2000}
        minRows={2}
        error={error}
        value={typeof value === 'string' ? value : ''}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    );
  }
  if (question.kind === 'single') {
    return (
      <Radio.Group
        label={question.prompt}
        withAsterisk={question.required}
        error={error}
        value={Array.isArray(value) ? (value[0] ?? null) : null}
        onChange={(choice) => onChange([choice])}
      >
        <Stack gap={6} mt={6}>
          {question.choices.map((choice) => (
            <Radio key={choice} value={choice} label={choice} />
          ))}
        </Stack>
      </Radio.Group>
    );
  }
  return (
    <Checkbox.Group
      label={question.prompt}
      withAsterisk={question.required}
      error={error}
      value={Array.isArray(value) ? value : []}
      onChange={onChange}
    >
      <Stack gap={6} mt={6}>
        {question.choices.map((choice) => (
          <Checkbox key={choice} value={choice} label={choice} />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

interface OnboardingSurveyModalProps {
  survey: SurveySummary;
  opened: boolean;
  /** The close button or Escape: closed for now; the banner still offers it. */
  onClose: () => void;
  /** "Not now": the browser's skip flag, so it is not fetched again this session. */
  onSkip: () => void;
}

/**
 * The onboarding survey (app-shell 2 and 4): its questions, answered in one go. Sent answers
 * turn the survey off in the profile, so it does not come back on any device.
 */
export function OnboardingSurveyModal({
  survey,
  opened,
  onClose,
  onSkip,
}: OnboardingSurveyModalProps) {
  // Asked with the offer, not once opened: the survey opens by itself half a second after it
  // loaded, and opens with its questions at once rather than a loading frame and a second render.
  const questions = useSurveyQuestionsQuery(survey.id);
  const submit = useSubmitSurveyMutation();
  const notify = useNotify();
  const [answers, setAnswers] = useState<Record<string, SurveyAnswer>>({});
  const [missing, setMissing] = useState<ReadonlySet<string>>(new Set());

  const send = (event: FormEvent) => {
    event.preventDefault();
    const list = questions.data ?? [];
    const unanswered = list.filter((q) => q.required && !given(answers[q.id])).map((q) => q.id);
    setMissing(new Set(unanswered));
    if (unanswered.length > 0) return;
    const filled = Object.fromEntries(
      list.flatMap((q) => (given(answers[q.id]) ? [[q.id, answers[q.id]!]] : [])),
    );
    submit.mutate(
      { surveyId: survey.id, answers: filled },
      {
        onSuccess: () =>
          notify({
            message: 'Thank you for your answers.',
            tone: 'success',
            durationMs: NOTICE_DURATION_MS.default,
          }),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title={survey.title} size="lg" centered>
      {questions.isPending ? (
        <LoadingFrame label="Loading the survey" minHeight={240} />
      ) : questions.isError ? (
        <Alert color="red" role="alert" title="The survey could not be loaded">
          {MESSAGES.somethingWentWrong}
        </Alert>
      ) : (
        <form onSubmit={send} noValidate aria-label={survey.title}>
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              A few questions about how you use short links help us build what you need.
            </Text>
            {questions.data.map((question) => (
              <QuestionField
                key={question.id}
                question={question}
                value={answers[question.id]}
                error={missing.has(question.id) ? 'This question needs an answer.' : undefined}
                onChange={(value) =>
                  setAnswers((current) => ({ ...current, [question.id]: value }))
                }
              />
            ))}
            {submit.isError && (
              <Alert color="red" role="alert" title="Your answers could not be sent">
                {refusal(submit.error)}
              </Alert>
            )}
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={onSkip}>
                Not now
              </Button>
              <Button type="submit" loading={submit.isPending}>
                Send answers
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
