import { LoadingFrame } from '../../../components/LoadingFrame.tsx';

/**
 * The height the single-link form takes on a phone for a guest (the homepage's first sight):
 * the address, the domain and alias row with its note, "Advanced options", the bot check and the
 * button (294 px at 412 px wide, measured). Its loading frames take it, so what is under the form
 * (the homepage's buttons and highlights) stays where it is when the form arrives.
 */
export const CREATE_FORM_BODY_HEIGHT = 294;
/** The form's heading and the gap under it, above the body. */
const CREATE_FORM_HEADING_HEIGHT = 42;
/** The whole form's content, heading included: while its code loads. */
export const CREATE_FORM_HEIGHT = CREATE_FORM_BODY_HEIGHT + CREATE_FORM_HEADING_HEIGHT;

/** The create form's loading state, at the size of the form it stands for. */
export function CreateFormLoading({ withHeading = false }: { withHeading?: boolean }) {
  return (
    <LoadingFrame
      label="Loading the create form"
      minHeight={withHeading ? CREATE_FORM_HEIGHT : CREATE_FORM_BODY_HEIGHT}
    />
  );
}
