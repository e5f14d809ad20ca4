import { matchPath } from 'react-router-dom';
import { paths } from '../routes/paths.ts';

/**
 * The survey asks how the user works with short links, so it is offered where they do: the
 * homepage's create form and the dashboard. Reading terms, settings or billing, it would be
 * in the way.
 */
const SURVEY_PAGES = [paths.homepage, paths.dashboard];

export function offersSurvey(pathname: string): boolean {
  return SURVEY_PAGES.some((pattern) => matchPath({ path: pattern, end: true }, pathname) != null);
}
