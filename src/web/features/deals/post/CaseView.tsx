import { Badge, Button, Group, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { StepError } from '../StepError';
import { useState } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import {
  CASE_MESSAGE_MAX,
  PROBLEM_REASONS,
  problemInputSchema,
  type ProblemReason,
} from '@shared/schemas/dealPost';
import type { Deal } from '@shared/schemas/deals';
import { ApiError } from '../../../lib/api';
import { useDealStep } from '../api';
import { formatWhen } from './format';
import { dataText } from '../../../lib/translator';
import { CaseRefund, useHeldPayment, type CaseOutcomeBody } from '../../payments';

/**
 * A member reports a problem (a sale's buyer, either member of a trade by post: `path`): a reason
 * and a first message open the case.
 */
export function ProblemForm({
  deal,
  onClose,
  path = 'problem',
}: {
  deal: Deal;
  onClose: () => void;
  path?: string;
}) {
  const { t } = useTranslation();
  const report = useDealStep<{ reason: ProblemReason; message: string }>(deal.id, path);
  const [reason, setReason] = useState<ProblemReason | null>(null);
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; message?: string }>({});
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = problemInputSchema.safeParse({ reason, message });
    if (!parsed.success) {
      const found: typeof errors = {};
      for (const issue of parsed.error.issues)
        found[issue.path[0] as keyof typeof errors] ??= dataText(t, issue.message);
      setErrors(found);
      return;
    }
    report.mutate(parsed.data, {
      onSuccess: onClose,
      onError: (err) => err instanceof ApiError && err.fields && setErrors(err.fields),
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={t('deals.post.problem.title')}>
      <Stack gap="xs">
        <Select
          label={t('deals.post.problem.reason')}
          data={PROBLEM_REASONS.map((r) => ({ value: r, label: t(`deals.post.reasons.${r}`) }))}
          value={reason}
          onChange={(v) => setReason(v as ProblemReason | null)}
          error={errors.reason}
          required
          size="xs"
        />
        <Textarea
          label={t('deals.post.problem.message')}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          error={errors.message}
          maxLength={CASE_MESSAGE_MAX}
          autosize
          minRows={2}
          required
          size="xs"
        />
        <Group gap="xs">
          <Button type="submit" size="compact-sm" color="red" loading={report.isPending}>
            {t('deals.post.problem.submit')}
          </Button>
          <Button size="compact-sm" variant="default" onClick={onClose}>
            {t('deals.post.problem.cancel')}
          </Button>
        </Group>
        <StepError error={report.error} />
      </Stack>
    </form>
  );
}

/** A problem's case: its messages, a reply box while open, and the admins' outcome buttons. */
export function CaseView({ deal }: { deal: Deal }) {
  const { t, i18n } = useTranslation();
  // A sale's parcel or a trade's two (decision 0090) share the case.
  const found = (deal.post?.case ?? deal.tradePost?.case)!;
  const write = useDealStep<{ body: string }>(deal.id, 'case/messages');
  const close = useDealStep<CaseOutcomeBody>(deal.id, 'case/outcome');
  // Money held in the app: the admin closes the case with its refund control (issue 36).
  const held = useHeldPayment(deal);
  const [body, setBody] = useState('');
  const open = found.outcome === null;
  const failed = write.error ?? close.error;
  return (
    <Paper
      withBorder
      p="xs"
      radius="sm"
      component="section"
      aria-label={t('deals.post.case.title', { reason: t(`deals.post.reasons.${found.reason}`) })}
      data-testid="deal-case"
    >
      <Stack gap={6}>
        <Group gap="xs" justify="space-between">
          <Text size="xs" fw={700}>
            {t('deals.post.case.title', { reason: t(`deals.post.reasons.${found.reason}`) })}
          </Text>
          <Badge size="xs" variant="light" color={open ? 'orange' : 'gray'} c="dark.7">
            {found.outcome
              ? t(`deals.post.case.outcome_${found.outcome}`)
              : t('deals.post.case.open')}
          </Badge>
        </Group>
        <Stack component="ol" gap={4} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {found.messages.map((m) => (
            <li key={m.id}>
              <Text size="xs" fw={600} span>
                {m.author?.displayName ?? t('deals.post.case.deleted')}
                {m.admin && ` (${t('deals.post.case.admin')})`}
              </Text>{' '}
              <Text size="xs" c="dimmed" span>
                {formatWhen(m.createdAt, i18n.language)}
              </Text>
              <Text size="xs" style={{ whiteSpace: 'pre-wrap' }}>
                {m.body}
              </Text>
            </li>
          ))}
        </Stack>
        {open && deal.status === 'open' && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (!body.trim()) return;
              write.mutate({ body }, { onSuccess: () => setBody('') });
            }}
          >
            <Stack gap="xs">
              <Textarea
                label={t('deals.post.case.message')}
                value={body}
                onChange={(e) => setBody(e.currentTarget.value)}
                maxLength={CASE_MESSAGE_MAX}
                autosize
                minRows={1}
                size="xs"
              />
              <Group gap="xs">
                <Button type="submit" size="compact-sm" variant="default" loading={write.isPending}>
                  {t('deals.post.case.send')}
                </Button>
                {deal.role === 'admin' && !held && (
                  <>
                    <Button
                      size="compact-sm"
                      loading={close.isPending && close.variables?.outcome === 'completed'}
                      onClick={() => close.mutate({ outcome: 'completed' })}
                    >
                      {t('deals.post.case.complete')}
                    </Button>
                    <Button
                      size="compact-sm"
                      color="red"
                      variant="outline"
                      loading={close.isPending && close.variables?.outcome === 'cancelled'}
                      onClick={() => close.mutate({ outcome: 'cancelled' })}
                    >
                      {t('deals.post.case.cancel')}
                    </Button>
                  </>
                )}
              </Group>
            </Stack>
          </form>
        )}
        {open && deal.status === 'open' && deal.role === 'admin' && held && (
          <CaseRefund deal={deal} onClose={close.mutateAsync} pending={close.isPending} />
        )}
        {failed && (
          <Text size="xs" c="red.9" role="alert">
            {failed.message}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
