import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';

export const TEXT_DEBOUNCE_MS = 300;

/**
 * A text filter typed into a box: the URL follows ~300 ms after typing stops (replacing the
 * history entry, so back does not step through every key), and the box follows the URL.
 */
export function DebouncedTextFilter({
  label,
  placeholder,
  value,
  onCommit,
  icon,
}: {
  label: string;
  placeholder?: string;
  value: string;
  onCommit: (value: string) => void;
  icon?: boolean;
}) {
  const [text, setText] = useState(value);
  const committed = useRef(value);
  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }, [value]);
  const commit = useDebouncedCallback((v: string) => {
    committed.current = v.trim();
    onCommit(v.trim());
  }, TEXT_DEBOUNCE_MS);
  return (
    <TextInput
      type="search"
      label={label}
      placeholder={placeholder}
      leftSection={icon ? <IconSearch size={16} aria-hidden /> : undefined}
      value={text}
      maxLength={200}
      onChange={(e) => {
        setText(e.currentTarget.value);
        commit(e.currentTarget.value);
      }}
    />
  );
}
