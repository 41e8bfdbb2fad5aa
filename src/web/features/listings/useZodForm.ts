import { useState } from 'react';
import { ApiError } from '../../lib/api';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import type { FormErrors } from '@mantine/form';
import type { $ZodType } from 'zod/v4/core';
import { dataText, type TFunction } from '@web/lib/translator';

/** Validates with a shared schema and translates its locale-key messages. */
export function translatedResolver(schema: $ZodType, t: TFunction) {
  const resolve = zod4Resolver(schema);
  return (values: Record<string, unknown>): FormErrors => {
    const errors = resolve(values);
    const out: FormErrors = {};
    for (const [k, v] of Object.entries(errors))
      out[k] = typeof v === 'string' ? dataText(t, v) : v;
    return out;
  };
}

/**
 * Runs a form's submit with a pending flag; field errors the server returns (400 `fields`) are
 * put under their fields, anything else is left to the caller's onSubmit.
 */
export function useServerSubmit<T>(
  form: { setErrors: (errors: FormErrors) => void },
  onSubmit: (data: T) => Promise<unknown>,
) {
  const [submitting, setSubmitting] = useState(false);
  const submitParsed = async (data: T) => {
    setSubmitting(true);
    try {
      await onSubmit(data);
    } catch (err) {
      if (err instanceof ApiError && err.fields) form.setErrors(err.fields);
    } finally {
      setSubmitting(false);
    }
  };
  return { submitting, submitParsed };
}
