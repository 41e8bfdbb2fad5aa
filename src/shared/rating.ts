/**
 * The rating rule: what a member's profile, the private area's sidebar and a profile's page
 * description say about how the member is rated. Only reviews rate a member. While nobody has
 * reviewed them they are a "new member": no stars, no figure (never a made-up 5.0, and never a
 * formula over their trades dressed up as reviews). One function, so every place shows the same.
 */
export interface MemberRating {
  /** The mean of the member's reviews, one decimal, from 1 to 5; null: a new member. */
  average: number | null;
  /** How many reviews the average is of. */
  reviewCount: number;
}

export function memberRating(summary: {
  count: number | null | undefined;
  average: number | string | null | undefined;
}): MemberRating {
  const count =
    typeof summary.count === 'number' && Number.isFinite(summary.count)
      ? Math.max(0, Math.floor(summary.count))
      : 0;
  const raw =
    summary.average === null || summary.average === undefined ? NaN : Number(summary.average);
  if (count === 0 || !Number.isFinite(raw)) return { average: null, reviewCount: 0 };
  const average = Math.min(5, Math.max(1, Math.round(raw * 10) / 10));
  return { average, reviewCount: count };
}

/** Whether a rating is a new member's (no reviews: shown as "new member", without stars). */
export const isNewMember = (rating: MemberRating) => rating.average === null;
