import { useQuery } from '@tanstack/react-query';
import { SKIP_GLOBAL_ERRORS_HEADER } from '../api/globalResponses.ts';
import { useSupabase } from '../lib/servicesContext.ts';
import type { PortalSupabase } from '../lib/supabase.ts';
import { surveyKeys } from './keys.ts';
import { unwrap } from './unwrap.ts';
import { useUserId } from './use-user-id.ts';

export interface SurveySummary {
  id: string;
  title: string;
  questionCount: number;
}

/** The active onboarding survey, or null when none is running. */
export async function fetchOnboardingSurvey(
  supabase: PortalSupabase,
): Promise<SurveySummary | null> {
  const rows = unwrap(
    await supabase
      .from('surveys')
      .select('id, title, survey_questions(count)')
      .eq('is_active', true)
      .order('created_at', { ascending: false })
      .limit(1)
      .setHeader(SKIP_GLOBAL_ERRORS_HEADER, '1'),
  );
  const survey = rows[0];
  if (!survey) return null;
  return {
    id: survey.id,
    title: survey.title,
    questionCount: survey.survey_questions[0]?.count ?? 0,
  };
}

export function useOnboardingSurveyQuery(enabled: boolean) {
  const supabase = useSupabase();
  const userId = useUserId();
  return useQuery({
    queryKey: surveyKeys.onboarding(userId ?? ''),
    queryFn: () => fetchOnboardingSurvey(supabase),
    enabled: enabled && userId != null,
  });
}
