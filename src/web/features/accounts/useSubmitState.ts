import { useCallback, useState } from 'react';

/**
 * The pending flag and the error box of the accounts forms: `run` clears the error, marks the
 * form as submitting, and shows the failure's message (the server's, already translated).
 * `onError` may react to the failure too (e.g. an expired reset token).
 */
export function useSubmitState() {
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const run = useCallback(async (action: () => Promise<void>, onError?: (err: unknown) => void) => {
    setError(null);
    setSubmitting(true);
    try {
      await action();
    } catch (err) {
      setError((err as Error).message);
      onError?.(err);
    } finally {
      setSubmitting(false);
    }
  }, []);
  return { error, setError, submitting, run };
}
