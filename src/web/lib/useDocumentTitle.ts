import { useEffect } from 'react';
import { pageTitle } from '@shared/format';

/** '{title} | Scaffale', or '{title} - {detail} | Scaffale' with a detail. */
export function useDocumentTitle(title: string, detail?: string) {
  useEffect(() => {
    document.title = pageTitle(title, detail);
  }, [title, detail]);
}
