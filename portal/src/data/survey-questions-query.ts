import { useQuery } from '@tanstack/react-query';
import { useSupabase } from '../lib/servicesContext.ts';
import { surveyKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

export interface SurveyQuestion {
  id: string;
  prompt: string;
  kind: 'single' | 'multiple' | 'text';
  choices: string[];
  required: boolean;
}

/** The questions of a survey, in order. */
export function useSurveyQuestionsQuery(surveyId: string | null) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: surveyKeys.questions(userId ?? '', surveyId ?? ''),
    queryFn: async (): Promise<SurveyQuestion[]> => {
      const rows = unwrap(
        await supabase
          .from('survey_questions')
          .select('id, prompt, kind, choices, required')
          .eq('survey_id', surveyId!)
          .order('position'),
      );
      return rows.map((row) => ({ ...row, kind: row.kind as SurveyQuestion['kind'] }));
    },
    enabled: userId != null && surveyId != null,
  });
}
