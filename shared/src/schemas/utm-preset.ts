/** UTM preset form (link-creation 3 and 5). */
import { z } from 'zod';
import type { UtmField } from '../constants.ts';
import { UTM_FIELDS } from '../constants.ts';
import { utmFieldError } from '../validation/utm.ts';
import { optionalText, requiredText } from './rules.ts';

export const PRESET_NAME_REQUIRED = 'The name field is required.';

function utmField(field: UtmField) {
  return optionalText().superRefine((value, ctx) => {
    const message = utmFieldError(field, value);
    if (message != null) ctx.addIssue({ code: 'custom', message });
  });
}

/** The five utm fields with the builder's rules ('The utm {field} …' messages). */
export const utmValuesSchema = z.object(
  Object.fromEntries(UTM_FIELDS.map((field) => [field, utmField(field)])) as Record<
    UtmField,
    ReturnType<typeof utmField>
  >,
);

export const utmPresetSchema = utmValuesSchema.extend({
  name: requiredText(PRESET_NAME_REQUIRED),
});
export type UtmPresetInput = z.input<typeof utmPresetSchema>;
export type UtmPreset = z.output<typeof utmPresetSchema>;
