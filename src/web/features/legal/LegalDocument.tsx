import { Anchor, Container, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Fragment, type ReactNode } from 'react';
import { Link } from '@web/lib/router';
import { Trans, useTranslation } from '@web/lib/reactI18n';
import { POLICIES_LAST_UPDATED } from '@shared/constants';
import { formatDate } from '@shared/format';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import type { LocaleKey } from '../../lib/translator';

export type LegalDocumentKey = 'privacy' | 'terms' | 'cookies';

interface SectionText {
  title: string;
  body?: string[];
  items?: string[];
  after?: string[];
}

/** The policies' date as a local calendar day (a bare ISO date would be read as UTC midnight). */
function lastUpdatedDate(): Date {
  const [y, m, d] = POLICIES_LAST_UPDATED.split('-').map(Number);
  return new Date(y, m - 1, d);
}

/** A link below a section: `to` an address of the app, or `href` another site's. */
export type SectionLink = { labelKey: LocaleKey } & ({ to: string } | { href: string });

function SectionLinkLine({ link }: { link: SectionLink }) {
  const { t } = useTranslation();
  return (
    <Text>
      {'to' in link ? (
        <Anchor component={Link} to={link.to}>
          {t(link.labelKey)}
        </Anchor>
      ) : (
        <Anchor href={link.href} target="_blank" rel="noopener noreferrer">
          {t(link.labelKey)}
        </Anchor>
      )}
    </Text>
  );
}

function Paragraphs({ texts }: { texts?: string[] }) {
  return texts?.map((p, i) => <Text key={i}>{p}</Text>);
}

/**
 * A legal page: title, last-updated date, back-to-home link, table of contents and numbered
 * sections whose full text lives in the locale catalogues under legal.{doc}.sections.{id}.
 * `extras` adds interactive or linked content after a section's text; `links`, a link on a line
 * of its own (an address of the app, or another site's in a new tab).
 */
export function LegalDocument({
  doc,
  sections,
  mailbox,
  extras = {},
  links = {},
}: {
  doc: LegalDocumentKey;
  sections: readonly string[];
  mailbox: string;
  extras?: Partial<Record<string, ReactNode>>;
  links?: Partial<Record<string, SectionLink>>;
}) {
  const { t, i18n } = useTranslation();
  const title = t(`legal.${doc}.title`);
  useDocumentTitle(title);
  const language = i18n.resolvedLanguage ?? i18n.language;
  // A page names its sections by id; one the catalogue lacks shows its key as its title.
  const section = (id: string): SectionText => {
    const key = `legal.${doc}.sections.${id}`;
    return i18n.exists(key) ? (t(key, { returnObjects: true }) as SectionText) : { title: key };
  };

  return (
    <Container size="md" py="xl" component="article" aria-labelledby="legal-title">
      <Stack gap="lg">
        <Anchor component={Link} to="/" fz="sm" w="fit-content">
          <Group gap={4} wrap="nowrap">
            <IconArrowLeft size={16} aria-hidden />
            {t('legal.backToHome')}
          </Group>
        </Anchor>
        <Stack gap={4}>
          <Title order={1} id="legal-title">
            {title}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('legal.lastUpdated')}{' '}
            <time dateTime={POLICIES_LAST_UPDATED}>{formatDate(lastUpdatedDate(), language)}</time>
          </Text>
        </Stack>
        <Text fz="lg">{t(`legal.${doc}.intro`)}</Text>

        <nav aria-labelledby="legal-contents">
          <Title order={2} fz="h4" id="legal-contents">
            {t('legal.contents')}
          </Title>
          <List type="ordered" mt="xs" spacing={4}>
            {sections.map((id) => (
              <List.Item key={id}>
                <Anchor href={`#${id}`}>{section(id).title}</Anchor>
              </List.Item>
            ))}
          </List>
        </nav>

        {sections.map((id, index) => {
          const s = section(id);
          return (
            <Stack key={id} component="section" gap="sm" aria-labelledby={id}>
              <Title order={2} fz="h3" id={id} style={{ scrollMarginTop: 80 }}>
                {index + 1}. {s.title}
              </Title>
              <Paragraphs texts={s.body} />
              {s.items && (
                <List spacing={6}>
                  {s.items.map((item, i) => (
                    <List.Item key={i}>{item}</List.Item>
                  ))}
                </List>
              )}
              <Paragraphs texts={s.after} />
              {extras[id] && <Fragment>{extras[id]}</Fragment>}
              {links[id] && <SectionLinkLine link={links[id]} />}
              {id === 'contact' && (
                <Text>
                  <Trans
                    i18nKey="legal.reachUs"
                    values={{ mailbox }}
                    components={{
                      mail: <Anchor href={`mailto:${mailbox}`} />,
                      form: <Anchor component={Link} to="/contact" />,
                    }}
                  />
                </Text>
              )}
            </Stack>
          );
        })}

        <Anchor component={Link} to="/" w="fit-content">
          {t('legal.backToHome')}
        </Anchor>
      </Stack>
    </Container>
  );
}
