import { Anchor, Text, type TextProps } from '@mantine/core';
import { useMemo } from 'react';
import { splitLinks } from './linkify';

/**
 * A member's text as plain text: line breaks kept, web addresses as links that open a new tab and
 * pass no authority (`nofollow ugc`) or window reference (`noopener`). Everything is a React text
 * node or an anchor built here: no HTML the member wrote is ever rendered.
 */
export function PostText({ text, ...props }: { text: string } & Omit<TextProps, 'children'>) {
  const parts = useMemo(() => splitLinks(text), [text]);
  return (
    <Text
      {...props}
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      data-testid="user-text"
    >
      {parts.map((part, i) =>
        part.kind === 'link' ? (
          <Anchor
            key={i}
            href={part.href}
            target="_blank"
            rel="noopener nofollow ugc"
            underline="always"
          >
            {part.text}
          </Anchor>
        ) : (
          part.text
        ),
      )}
    </Text>
  );
}
