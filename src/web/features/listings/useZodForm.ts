import { zod4Resolver } from 'mantine-form-zod-resolver';
import type { FormErrors } from '@mantine/form';
import type { $ZodType } from 'zod/v4/core';
import type { TFunction } from 'i18next';

/** Validates with a shared schema and translates its locale-key messages. */
export function translatedResolver(schema: $ZodType, t: TFunction) {
  const resolve = zod4Resolver(schema);
  return (values: Record<string, unknown>): FormErrors => {
    const errors = resolve(values);
    const out: FormErrors = {};
    for (const [k, v] of Object.entries(errors)) out[k] = typeof v === 'string' ? t(v) : v;
    return out;
  };
}
