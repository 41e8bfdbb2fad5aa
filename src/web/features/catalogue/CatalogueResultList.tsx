import { Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import type { CatalogueBook } from '@shared/marketplace';
import { BookCover } from '../../components/BookCover';
import classes from './CatalogueSearch.module.css';

/**
 * The results of a catalogue search as buttons to choose from (cover, or the generated one, title,
 * author and year): the quick-add and wishlist search box and the community's book picker show the same list.
 */
export function CatalogueResultList({
  id,
  label,
  items,
  onChoose,
  maxHeight,
}: {
  /** What the search box's aria-controls names. */
  id: string;
  label: string;
  items: readonly CatalogueBook[];
  onChoose: (book: CatalogueBook) => void;
  /** Scrolls beyond this height (320 px unless told). */
  maxHeight?: number;
}) {
  return (
    <Paper withBorder p={4} id={id}>
      <Stack
        component="ul"
        gap={2}
        className={classes.list}
        style={maxHeight ? { maxHeight } : undefined}
        aria-label={label}
      >
        {items.map((book) => (
          <li key={book.id}>
            <UnstyledButton className={classes.option} onClick={() => onChoose(book)}>
              <Group gap="sm" wrap="nowrap">
                {book.coverUrl ? (
                  <img src={book.coverUrl} alt="" className={classes.thumb} loading="lazy" />
                ) : (
                  // The book's generated cover (never a grey box); the button's name is the title.
                  <span className={classes.generatedThumb} aria-hidden>
                    <BookCover url={null} title={book.title} author={book.author} height={48} />
                  </span>
                )}
                <div>
                  <Text size="sm" fw={600} lineClamp={2}>
                    {book.title}
                  </Text>
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {[book.author, book.publishedDate?.slice(0, 4)].filter(Boolean).join(' · ')}
                  </Text>
                </div>
              </Group>
            </UnstyledButton>
          </li>
        ))}
      </Stack>
    </Paper>
  );
}
