import { api, ApiError, uploadFile } from '../../lib/api';
import i18n from '../../lib/i18n';
import type { Me, UpdateProfileInput } from '@shared/schemas/profile';

export type { Me };

export interface ListingStats {
  total: number;
  available: number;
  totalValue: number;
}

export const fetchMe = () => api<Me>('/api/me');

export const fetchProviders = () => api<{ google: boolean }>('/api/accounts/providers');

export const signIn = (identifier: string, password: string) =>
  api<{ user: Me }>('/api/accounts/sign-in', {
    method: 'POST',
    body: { identifier: identifier.trim(), password },
  });

/** better-auth's sign-up; Accept-Language (sent by api()) picks the confirmation e-mail's language. */
export const signUp = (input: {
  email: string;
  password: string;
  displayName: string;
  username: string;
  acceptTerms: boolean;
}) =>
  api<unknown>('/api/auth/sign-up/email', {
    method: 'POST',
    body: {
      email: input.email.trim(),
      password: input.password,
      name: input.displayName.trim(),
      username: input.username.trim(),
      acceptTerms: input.acceptTerms,
      callbackURL: '/login?verified=1',
    },
  });

/** Changes the password; every other session of the member ends. */
export const changePassword = (body: { currentPassword: string; newPassword: string }) =>
  api<{ endedSessions: number }>('/api/me/password', { method: 'POST', body });

export const requestPasswordReset = (email: string) =>
  api<unknown>('/api/auth/request-password-reset', {
    method: 'POST',
    body: { email: email.trim(), redirectTo: '/reset-password' },
  });

export const resetPassword = (token: string, newPassword: string) =>
  api<unknown>('/api/auth/reset-password', { method: 'POST', body: { token, newPassword } });

export const sendVerificationEmail = (email: string) =>
  api<unknown>('/api/auth/send-verification-email', {
    method: 'POST',
    body: { email, callbackURL: '/login?verified=1' },
  });

/**
 * Starts the Google (OpenID Connect) sign-in: the server answers the provider's authorisation URL
 * and the browser goes there; the provider comes back to /auth/callback.
 */
export async function startGoogleSignIn(redirectTo: string | null): Promise<void> {
  const callbackURL = redirectTo
    ? `/auth/callback?redirect_to=${encodeURIComponent(redirectTo)}`
    : '/auth/callback';
  const res = await api<{ url?: string; redirect?: boolean }>('/api/auth/sign-in/social', {
    method: 'POST',
    body: { provider: 'google', callbackURL, errorCallbackURL: '/auth/callback' },
  });
  if (!res?.url) throw new ApiError(500, 'error', i18n.t('errors.general'));
  window.location.assign(res.url);
}

export const updateMe = (patch: UpdateProfileInput) =>
  api<Me>('/api/me', { method: 'PATCH', body: patch });

export const fetchListingStats = () => api<ListingStats>('/api/me/listings/stats');

/**
 * POST /api/me/avatar with real upload progress; the server's message (the settings page words a
 * failure without one).
 */
export async function uploadAvatar(file: File, onProgress: (percent: number) => void): Promise<Me> {
  try {
    return await uploadFile<Me>('/api/me/avatar', file, { onProgress });
  } catch (err) {
    const e = err as ApiError;
    if (e.code === 'network') throw new ApiError(0, 'network', i18n.t('errors.network'));
    throw e;
  }
}

/** The member's preferred language (e-mails and their next visit speak it): the header's switch. */
export const savePreferredLanguage = (preferredLanguage: Me['preferredLanguage']) =>
  updateMe({ preferredLanguage });
