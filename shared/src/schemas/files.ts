/** Upload metadata as forms and functions receive it. */
import { z } from 'zod';

const fileMetaShape = {
  name: z.string(),
  size: z.number().int().nonnegative(),
  type: z.string().default(''),
};

export const fileMetaSchema = z.object(fileMetaShape);

/** A file that must be there; a missing one gets `message`. */
export function requiredFileMeta(message: string) {
  return z.object(fileMetaShape, { error: message });
}
