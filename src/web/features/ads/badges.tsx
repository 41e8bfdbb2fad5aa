import { Badge } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';
import type { AdStatus } from './model';

/** A distinct colour per status, text dark enough for WCAG AA on the tint. */
const TONES: Record<AdStatus, { color: string; text: string }> = {
  active: { color: 'green', text: '#1e6b30' },
  paused: { color: 'yellow', text: '#8a5a00' },
  draft: { color: 'gray', text: '#495057' },
  expired: { color: 'orange', text: '#9a3412' },
  rejected: { color: 'red', text: '#a51d1d' },
};

export function AdStatusBadge({ status }: { status: AdStatus }) {
  const { t } = useTranslation();
  const tone = TONES[status] ?? TONES.draft;
  return (
    <Badge color={tone.color} variant="light" c={tone.text} data-testid="ad-status">
      {t(`ads.status.${status}`)}
    </Badge>
  );
}
