import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPackage } from '@tabler/icons-react';
import { useEffect, useState, type RefObject } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import classes from './BundleBar.module.css';

export const bundlePanelClass = classes.panel;

/** Whether `target` is out of the viewport (false until known). */
function useOutOfSight(target: RefObject<HTMLElement | null>) {
  const [out, setOut] = useState(false);
  useEffect(() => {
    const el = target.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setOut(!entry.isIntersecting));
    observer.observe(el);
    return () => observer.disconnect();
  }, [target]);
  return out;
}

/**
 * The bundle kept in sight while a buyer adds books (issue 33 item 7): when its panel scrolls out
 * of view, a summary stays at the foot of the screen (a corner card on wider screens) with the
 * books, their asking prices and a button that brings the panel back, its heading focused.
 */
export function BundleBar({
  panel,
  heading,
  name,
  count,
  total,
}: {
  panel: RefObject<HTMLElement | null>;
  heading: RefObject<HTMLHeadingElement | null>;
  name: string | null;
  count: number;
  total: string | null;
}) {
  const { t } = useTranslation();
  const out = useOutOfSight(panel);
  useEffect(() => {
    if (!out) return;
    // The page's end stays reachable above the bar.
    const before = document.body.style.paddingBottom;
    document.body.style.paddingBottom = '88px';
    return () => {
      document.body.style.paddingBottom = before;
    };
  }, [out]);
  if (!out) return null;
  const show = () => {
    panel.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  };
  return (
    <section
      className={classes.bar}
      aria-label={t('deals.bundle.bar.label')}
      data-testid="bundle-bar"
    >
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="xs" wrap="nowrap" miw={0}>
          <IconPackage size={22} aria-hidden style={{ flexShrink: 0 }} />
          <Stack gap={0} miw={0}>
            {/* The count first: a long name is cut, never the count. */}
            <Text size="sm" fw={600}>
              {t('deals.bundle.bar.summary', { count })}
            </Text>
            {(name || total) && (
              <Text size="xs" c="dimmed" truncate="end">
                {name && total
                  ? t('deals.bundle.bar.detail', { name, total })
                  : total
                    ? t('deals.bundle.booksTotal', { total })
                    : t('deals.bundle.bar.from', { name })}
              </Text>
            )}
          </Stack>
        </Group>
        <Button size="compact-sm" onClick={show} style={{ flexShrink: 0 }}>
          {t('deals.bundle.bar.show')}
        </Button>
      </Group>
    </section>
  );
}
