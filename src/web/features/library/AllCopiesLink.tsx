import { Link } from '@web/lib/router';
import { useTranslation } from '@web/lib/reactI18n';
import classes from './AllCopiesLink.module.css';

/**
 * Below a result's card: "All 3 copies", the page of its work (/books/:workId), when the work has
 * more than this copy available (the answer's `workCopies`).
 */
export function AllCopiesLink({
  workId,
  copies,
}: {
  workId: string | null;
  copies: Record<string, number> | undefined;
}) {
  const { t } = useTranslation();
  const count = workId ? (copies?.[workId] ?? 0) : 0;
  if (!workId || count < 2) return null;
  return (
    <Link to={`/books/${workId}`} className={classes.link} data-testid="all-copies-link">
      {t('works.allCopies', { count })}
    </Link>
  );
}
