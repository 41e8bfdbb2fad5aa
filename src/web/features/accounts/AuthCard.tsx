import { Anchor, Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from '@web/lib/router';
import type { ReactNode } from 'react';

/** The frame of the sign-in, sign-up and password screens. */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Container size={460} py={{ base: 32, sm: 56 }} px="md">
      <Paper withBorder radius="md" p={{ base: 'lg', sm: 'xl' }} shadow="xs">
        <Stack gap="lg">
          <Stack gap={4} ta="center">
            <Title order={1} fz={{ base: 26, sm: 30 }}>
              {title}
            </Title>
            {subtitle && <Text c="dimmed">{subtitle}</Text>}
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}

/** The full-width submit button of an auth form. */
export function AuthSubmit({ loading, children }: { loading: boolean; children: ReactNode }) {
  return (
    <Button type="submit" size="md" loading={loading} fullWidth>
      {children}
    </Button>
  );
}

/** The line below an auth form that leads to the next screen ("No account? Sign up"). */
export function AuthFooterLink({
  lead,
  to,
  underline,
  children,
}: {
  /** The words before the link, if any. */
  lead?: string;
  to: string;
  underline?: 'always';
  children: ReactNode;
}) {
  return (
    <Text ta="center" size="sm">
      {lead && <>{lead} </>}
      <Anchor component={Link} to={to} underline={underline}>
        {children}
      </Anchor>
    </Text>
  );
}
