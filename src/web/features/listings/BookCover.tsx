import { Box, Center } from '@mantine/core';
import { IconBook2 } from '@tabler/icons-react';
import classes from './BookCover.module.css';

/**
 * A book cover at a 2:3 ratio. Cover URLs are always on our origin (the server proxies remote
 * covers); a missing cover shows a neutral placeholder. The image is decorative: the title is
 * always printed beside it.
 */
export function BookCover({ url, height }: { url: string | null | undefined; height?: number }) {
  return (
    <Box className={classes.cover} h={height} w={height ? (height * 2) / 3 : undefined}>
      {url ? (
        <img src={url} alt="" loading="lazy" className={classes.image} />
      ) : (
        <Center className={classes.placeholder} data-testid="cover-placeholder">
          <IconBook2 size="40%" stroke={1.2} aria-hidden />
        </Center>
      )}
    </Box>
  );
}
