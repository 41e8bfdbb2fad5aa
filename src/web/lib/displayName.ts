/**
 * The name a member goes by: their display name, else their @username, else `fallback` (a neutral
 * "Member" in the reader's language). Never the e-mail or its local part.
 */
export function memberNameOf(
  user: { displayName?: string | null; username?: string | null },
  fallback: string,
): string {
  const name = user.displayName?.trim();
  if (name) return name;
  return user.username ? `@${user.username}` : fallback;
}
