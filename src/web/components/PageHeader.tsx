import { Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A page's heading (h1, sized for a phone and a desktop) and the dimmed line below it. */
export function PageHeader({ title, subtitle }: { title: ReactNode; subtitle: ReactNode }) {
  return (
    <div>
      <Title order={1} fz={{ base: 28, sm: 34 }}>
        {title}
      </Title>
      <Text c="dimmed">{subtitle}</Text>
    </div>
  );
}
