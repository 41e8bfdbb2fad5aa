import { createHash } from 'node:crypto';
import { isLanguage, TERMS_VERSION } from '@shared/constants';
import type { Me, UpdateProfileInput } from '@shared/schemas/profile';
import { AVATAR_MAX_BYTES } from '@shared/constants';
import type { Database } from '../../db/client';
import { AppError, conflict, unauthorized } from '../../platform/errors';
import type { OwnedStorage, ReleaseUploads } from '../../platform/uploads';
import {
  findUser,
  replaceAvatarUrl,
  updateUser,
  usernameHeldByOther,
  type ProfilePatch,
  type UserRow,
} from './queries';

/** Avatars are stored at most this many pixels on each side. */
export const AVATAR_MAX_SIDE = 512;

/**
 * The identicon seed: sha-256 hex of the member's id, never of the e-mail: a public hash of an
 * e-mail lets anyone test whether an address has an account.
 */
export function avatarSeedOf(userId: string): string {
  return createHash('sha256').update(`scaffale-identicon:${userId}`).digest('hex');
}

/** A user row as the owner's private Me (also used by the accounts sign-in answer). */
export function toMe(row: UserRow): Me {
  return {
    id: row.id,
    email: row.email,
    emailVerified: row.emailVerified,
    accountStatus: row.emailVerified ? 'verified' : 'pending',
    // Never the e-mail's local part: a member without a name has none until they choose one.
    displayName: row.displayName,
    username: row.displayUsername ?? row.username ?? null,
    avatarUrl: row.avatarUrl ?? null,
    avatarSeed: avatarSeedOf(row.id),
    firstName: row.firstName ?? null,
    lastName: row.lastName ?? null,
    bio: row.bio ?? null,
    locationCity: row.locationCity ?? null,
    locationCountry: row.locationCountry ?? null,
    preferredLanguage: isLanguage(row.preferredLanguage) ? row.preferredLanguage : 'en',
    emailNotifications: row.emailNotifications,
    needsProfile: !row.username || !row.displayName.trim(),
    needsTerms: row.termsAcceptedAt === null,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

/** The signed-in member's Me; a session whose user is gone counts as no session. */
export async function loadMe(database: Database, userId: string): Promise<Me> {
  const row = await findUser(database, userId);
  if (!row) throw unauthorized();
  return toMe(row);
}

const usernameTaken = () =>
  conflict('profile.errors.usernameTaken', { username: 'profile.errors.usernameTaken' });

/** Walks an error's cause chain (drizzle wraps driver errors) for a PostgreSQL SQLSTATE. */
function sqlState(err: unknown): { code?: string; constraint?: string } {
  for (
    let e = err as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
      return {
        code: e.code,
        constraint: typeof e.constraint === 'string' ? e.constraint : undefined,
      };
    }
  }
  return {};
}

/** A unique violation on the username index (what a lost race for one name raises). */
export function isUsernameConflict(err: unknown): boolean {
  const { code, constraint } = sqlState(err);
  return code === '23505' && (!constraint || constraint.includes('username'));
}

export async function updateProfile(
  database: Database,
  userId: string,
  input: UpdateProfileInput,
  now: Date,
): Promise<Me> {
  const patch: ProfilePatch = {};
  if (input.username !== undefined) {
    // Stored as better-auth's username plugin stores it: normalised lower case, and as typed.
    patch.username = input.username.toLowerCase();
    patch.displayUsername = input.username;
    if (await usernameHeldByOther(database, input.username, userId)) throw usernameTaken();
  }
  if (input.displayName !== undefined) patch.displayName = input.displayName;
  for (const key of ['bio', 'firstName', 'lastName', 'locationCity', 'locationCountry'] as const) {
    const value = input[key];
    if (value !== undefined) patch[key] = value;
  }
  if (input.preferredLanguage !== undefined) patch.preferredLanguage = input.preferredLanguage;
  if (input.emailNotifications !== undefined) patch.emailNotifications = input.emailNotifications;
  if (input.acceptTerms) {
    patch.termsAcceptedAt = now;
    patch.termsVersion = TERMS_VERSION;
  }

  if (Object.keys(patch).length === 0) return loadMe(database, userId);
  try {
    const row = await updateUser(database, userId, patch, now);
    if (!row) throw unauthorized();
    return toMe(row);
  } catch (err) {
    // Two members claiming the same name at once: the unique index decides, the loser gets 409.
    if (isUsernameConflict(err)) throw usernameTaken();
    throw err;
  }
}

/**
 * Stores a new avatar, points the member at it and releases the file it replaced (deleted only
 * when the member uploaded it and nothing else shows it). If the database update fails the new
 * file is removed again, so nothing half-done stays behind.
 */
export async function changeAvatar(
  deps: { database: Database; storage: OwnedStorage; releaseUploads: ReleaseUploads },
  userId: string,
  buffer: Buffer,
  now: Date,
): Promise<Me> {
  const saved = await deps.storage.saveImage({
    owner: userId,
    folder: 'avatars',
    buffer,
    maxBytes: AVATAR_MAX_BYTES,
    maxWidth: AVATAR_MAX_SIDE,
    maxHeight: AVATAR_MAX_SIDE,
  });
  let previous: string | null;
  try {
    const result = await replaceAvatarUrl(deps.database, userId, saved.url, now);
    if (!result.found) throw unauthorized();
    previous = result.previous;
  } catch (err) {
    await deps.storage.delete(saved.url).catch(() => false);
    throw err;
  }
  if (previous && previous !== saved.url) await deps.releaseUploads(userId, [previous]);
  return loadMe(deps.database, userId);
}

export const uploadFailed = () => new AppError(500, 'upload_failed', 'profile.errors.uploadFailed');
