import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconSearchOff } from '@tabler/icons-react';
import { useTranslation } from '@web/lib/reactI18n';
import { Link, useLocation } from '@web/lib/router';
import { useSession } from '@web/lib/session';
import { ButtonLink } from '../../components/ButtonLink';
import { useSuggestions } from './api';
import { alternativesTo, noResultsCase, suggestionWords } from './noResultsCase';

/** At most this many "did you mean" titles and authors. */
const ALTERNATIVES = 3;

/**
 * An empty result (issue 33, item 12), in the words of its case: words alone say the words found
 * nothing (filters are not mentioned: none is on), filters say so and offer to clear them. Either
 * offers what helps: titles and authors close to the words ("did you mean"), the typo correction
 * again if the words were searched as typed, saving the search (the button above the results:
 * told of a new match) and the wishlist (told when the book is listed); a visitor is asked to
 * sign in for the last two.
 */
export function NoResults({
  words,
  filters,
  exact,
  onSearch,
  onCorrect,
  onClear,
}: {
  /** The words searched ('' for none). */
  words: string;
  /** True when a filter other than the words is on. */
  filters: boolean;
  /** True when the words were searched as typed (the correction turned off). */
  exact: boolean;
  onSearch: (q: string) => void;
  onCorrect: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const location = useLocation();
  const suggestions = useSuggestions(suggestionWords(words));
  const alternatives = alternativesTo(words, suggestions.data?.items ?? [], ALTERNATIVES);
  const { text, typed, clear } = noResultsCase(words, filters);
  const signedIn = session.status === 'signed-in';
  const back = `/login?redirect_to=${encodeURIComponent(`${location.pathname}${location.search}`)}`;

  return (
    <Stack align="center" ta="center" py="xl" gap="xs" data-testid="library-no-results">
      <IconSearchOff size={48} stroke={1.2} aria-hidden />
      <Title order={2} fz="lg">
        {t('library.empty.noResultsTitle')}
      </Title>
      <Text c="dimmed">{t(text, { words: typed })}</Text>
      {alternatives.length > 0 && (
        <Text>
          {t('library.empty.didYouMean')}{' '}
          {alternatives.map((s, i) => (
            <span key={`${s.kind}:${s.text}`}>
              {i > 0 && ', '}
              <Anchor component="button" type="button" onClick={() => onSearch(s.text)}>
                {s.text}
              </Anchor>
            </span>
          ))}
        </Text>
      )}
      {exact && typed && (
        <Anchor component="button" type="button" onClick={onCorrect}>
          {t('library.empty.withCorrections')}
        </Anchor>
      )}
      <Group justify="center" gap="xs" mt="xs">
        {clear && (
          <Button variant="default" onClick={onClear}>
            {t('library.filters.clear')}
          </Button>
        )}
        {/* A member's "Save this search" is the one above the results (one button, one name). */}
        {session.status === 'signed-in' ? (
          <ButtonLink to={`/profile/${session.user.id}/wishlist`} variant="default">
            {t('library.empty.addToWishlist')}
          </ButtonLink>
        ) : (
          <Button component={Link} to={back} variant="default">
            {t('library.empty.signInToBeTold')}
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed" maw={480}>
        {signedIn ? t('library.empty.beToldMember') : t('library.empty.beToldVisitor')}
      </Text>
    </Stack>
  );
}
