import { Group, Text, VisuallyHidden } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { intlLocale } from '@shared/intlLocale';

export interface ChartDay {
  date: string;
  impressions: number;
  clicks: number;
  conversions: number;
}

const SERIES = [
  { key: 'impressions', color: '#8b5a2b' },
  { key: 'clicks', color: '#1c6e8c' },
  { key: 'conversions', color: '#2f7d32' },
] as const;

const W = 640;
const H = 200;
const PAD = { top: 12, right: 8, bottom: 28, left: 36 };

/**
 * Events per day as grouped bars in plain SVG (no chart library: a few hundred bytes of code for
 * a picture the analytics table also gives in words). The same numbers are in a visually hidden
 * table for screen readers.
 */
export function DailyChart({ days }: { days: ChartDay[] }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const max = Math.max(1, ...days.flatMap((d) => [d.impressions, d.clicks, d.conversions]));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, days.length);
  const bar = Math.max(1, (slot * 0.8) / SERIES.length);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const dateFmt = new Intl.DateTimeFormat(intlLocale(i18n.language), {
    day: 'numeric',
    month: 'short',
  });
  const label = (d: string) => dateFmt.format(new Date(`${d}T00:00:00Z`));
  // Whole numbers only, without repeats (a maximum of 1 has no half).
  const ticks = [...new Set([0, Math.round(max / 2), max])];
  const tickEvery = Math.max(1, Math.ceil(days.length / 6));

  return (
    <figure style={{ margin: 0 }}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        role="img"
        aria-labelledby={titleId}
        style={{ display: 'block', maxHeight: 260 }}
        data-testid="ads-chart"
      >
        <title id={titleId}>{t('ads.analytics.chartTitle')}</title>
        {ticks.map((v) => (
          <g key={v}>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(v)}
              y2={y(v)}
              stroke="#ddd"
              strokeWidth={1}
            />
            <text x={PAD.left - 4} y={y(v) + 4} fontSize={11} textAnchor="end" fill="#555">
              {v}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x0 = PAD.left + i * slot + slot * 0.1;
          return (
            <g key={d.date}>
              {SERIES.map((s, j) => {
                const v = d[s.key];
                const top = y(v);
                return (
                  <rect
                    key={s.key}
                    x={x0 + j * bar}
                    y={top}
                    width={bar}
                    height={Math.max(0, PAD.top + innerH - top)}
                    fill={s.color}
                  />
                );
              })}
              {i % tickEvery === 0 && (
                <text
                  x={PAD.left + i * slot + slot / 2}
                  y={H - 8}
                  fontSize={11}
                  textAnchor="middle"
                  fill="#555"
                >
                  {label(d.date)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <Group component="figcaption" gap="md" mt={4} aria-hidden>
        {SERIES.map((s) => (
          <Group key={s.key} gap={6}>
            <span style={{ width: 12, height: 12, background: s.color, display: 'inline-block' }} />
            <Text size="sm">{t(`ads.analytics.${s.key}`)}</Text>
          </Group>
        ))}
      </Group>
      <VisuallyHidden>
        <table>
          <caption>{t('ads.analytics.chartTitle')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('ads.analytics.date')}</th>
              {SERIES.map((s) => (
                <th key={s.key} scope="col">
                  {t(`ads.analytics.${s.key}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <th scope="row">{label(d.date)}</th>
                <td>{d.impressions}</td>
                <td>{d.clicks}</td>
                <td>{d.conversions}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </figure>
  );
}
