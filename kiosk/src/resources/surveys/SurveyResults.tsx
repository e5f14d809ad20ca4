import { Box, LinearProgress, List, ListItem, Stack, Typography } from '@mui/material';
import { useListContext } from 'react-admin';
import { choiceBars, type QuestionResult } from './results.ts';

const KIND_LABELS: Record<QuestionResult['kind'], string> = {
  single: 'One choice',
  multiple: 'Several choices',
  text: 'Free text',
};

function ChoiceResults({ question }: { question: QuestionResult }) {
  return (
    <Stack spacing={1}>
      {choiceBars(question).map((bar) => (
        <Box key={bar.choice}>
          <Typography variant="body2">
            {bar.choice}: {bar.answers} ({bar.percent}%)
          </Typography>
          <LinearProgress
            variant="determinate"
            value={bar.percent}
            aria-label={`${bar.choice}: ${bar.percent}%`}
          />
        </Box>
      ))}
    </Stack>
  );
}

function TextResults({ question }: { question: QuestionResult }) {
  if (question.latest_text_answers.length === 0) {
    return <Typography variant="body2">No answers yet.</Typography>;
  }
  return (
    <List dense>
      {question.latest_text_answers.map((answer, index) => (
        <ListItem key={index}>“{answer}”</ListItem>
      ))}
    </List>
  );
}

/** Each question of the survey with its answers summary (inside a ReferenceManyField). */
export function SurveyResults() {
  const { data, isPending } = useListContext<QuestionResult>();
  if (isPending) return null;
  if (!data?.length) return <Typography>This survey has no questions yet.</Typography>;
  return (
    <Stack spacing={3} sx={{ width: '100%' }}>
      {data.map((question) => (
        <Box key={question.id} component="section">
          <Typography variant="subtitle1" component="h3">
            {question.position + 1}. {question.prompt}
          </Typography>
          <Typography variant="caption" color="text.secondary" display="block" gutterBottom>
            {KIND_LABELS[question.kind]} · {question.answers_count} answer
            {question.answers_count === 1 ? '' : 's'}
          </Typography>
          {question.kind === 'text' ? (
            <TextResults question={question} />
          ) : (
            <ChoiceResults question={question} />
          )}
        </Box>
      ))}
    </Stack>
  );
}
