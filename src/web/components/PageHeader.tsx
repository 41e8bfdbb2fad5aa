import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A page's heading (h1, sized for a phone and a desktop) and the dimmed line below it; `compact`
 * for the pages of a member's own area and tools (a smaller heading).
 */
export function PageHeader({
  title,
  subtitle,
  compact = false,
}: {
  title: ReactNode;
  subtitle: ReactNode;
  compact?: boolean;
}) {
  return (
    <div>
      <Title order={1} fz={compact ? { base: 26, sm: 32 } : { base: 28, sm: 34 }}>
        {title}
      </Title>
      <Text c="dimmed">{subtitle}</Text>
    </div>
  );
}

/** The large centred heading of a page of prose (about, contact) and its lead paragraph. */
export function HeroHeader({
  title,
  subtitle,
  mb,
}: {
  title: ReactNode;
  subtitle: ReactNode;
  mb: number;
}) {
  return (
    <Stack align="center" ta="center" gap="md" mb={mb}>
      <Title order={1} fz={{ base: 32, sm: 44 }}>
        {title}
      </Title>
      <Text fz="lg" c="dimmed" maw={680}>
        {subtitle}
      </Text>
    </Stack>
  );
}
