import { TextInput } from '@mantine/core';
import { useDebouncedCallback, useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { QUERY_MAX_LENGTH } from '@shared/marketplaceConstants';
import { SUGGEST_DEBOUNCE_MS, useSuggestions } from './api';
import { TEXT_DEBOUNCE_MS } from './DebouncedTextFilter';
import classes from './SearchBox.module.css';

/**
 * The library's search box: the words follow into the URL ~300 ms after typing stops (as every
 * text filter), and titles and authors of available listings are suggested as one types
 * (GET /api/listings/suggest, asked ~150 ms after the last key). An ARIA 1.2 combobox with a
 * listbox popup, drawn by hand: Mantine's Autocomplete would bring its floating-ui positioning
 * to the first screen of every phone. Arrow keys move through the suggestions, Enter picks one
 * (or searches what was typed), Escape closes them; picking one runs the search at once.
 */
export function SearchBox({ value, onCommit }: { value: string; onCommit: (q: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const committed = useRef(value);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
    }
  }, [value]);
  const commitNow = (v: string) => {
    commit.cancel();
    committed.current = v.trim();
    onCommit(v.trim());
  };
  const commit = useDebouncedCallback((v: string) => {
    committed.current = v.trim();
    onCommit(v.trim());
  }, TEXT_DEBOUNCE_MS);
  const [asked] = useDebouncedValue(open ? text : '', SUGGEST_DEBOUNCE_MS);
  const suggestions = useSuggestions(asked);
  const items = (open && text.trim() && suggestions.data?.items) || [];
  const shown = items.length > 0;

  const pick = (i: number) => {
    const item = items[i];
    if (!item) return;
    setText(item.text);
    setOpen(false);
    setActive(-1);
    commitNow(item.text);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!shown) {
        setOpen(true);
        return;
      }
      e.preventDefault();
      const last = items.length - 1;
      setActive((a) =>
        e.key === 'ArrowDown' ? (a < last ? a + 1 : 0) : a > 0 ? Math.min(a - 1, last) : last,
      );
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (shown && active >= 0 && active < items.length) pick(active);
      else {
        setOpen(false);
        commitNow(text);
      }
    } else if (e.key === 'Escape' && shown) {
      e.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const optionId = (i: number) => `${listId}-${i}`;
  // The option chosen by the arrow keys stays in sight when long titles make the list scroll.
  const activeId = shown && active >= 0 ? optionId(active) : null;
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);
  return (
    <div className={classes.box}>
      <TextInput
        type="search"
        label={t('library.filters.q')}
        placeholder={t('library.filters.qPlaceholder')}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={text}
        maxLength={QUERY_MAX_LENGTH}
        autoComplete="off"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={activeId ?? undefined}
        onChange={(e) => {
          setText(e.currentTarget.value);
          setOpen(true);
          setActive(-1);
          commit(e.currentTarget.value);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={t('library.suggest.label')}
        className={classes.list}
        hidden={!shown}
        // Keeps the focus in the box while a suggestion is clicked or touched.
        onMouseDown={(e) => e.preventDefault()}
      >
        {items.map((item, i) => (
          <li
            key={`${item.kind} ${item.text}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className={classes.option}
            onClick={() => pick(i)}
            onMouseEnter={() => setActive(i)}
          >
            <span className={classes.kind}>{t(`library.suggest.${item.kind}`)}</span>
            <span>{item.text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
