import { firstErrorPerField } from '@shortlane/shared/schemas/rules.ts';
import type { ZodType } from 'zod';

/**
 * A @mantine/form `validate` function from one of shared's zod schemas: the first message per
 * field, as the spec shows form errors. The schemas are the ones the server side checks with.
 */
export function validateWith<Values>(schema: ZodType<unknown, Values>) {
  return (values: Values): Record<string, string> => {
    const result = schema.safeParse(values);
    return result.success ? {} : firstErrorPerField(result.error);
  };
}
