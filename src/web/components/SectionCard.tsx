import { Card, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A titled part of a page of several (the settings): a card that is a <section> named by its h2.
 * `id` is the section's anchor (a link may point at it); its title's id is `${id}-title`.
 */
export function SectionCard({
  id,
  title,
  children,
}: {
  id: string;
  title: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="lg" component="section" id={id} aria-labelledby={`${id}-title`}>
      <Stack gap="md">
        <Title order={2} fz="lg" id={`${id}-title`}>
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}
