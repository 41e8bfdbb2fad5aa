import Stripe from 'stripe';
import type { PaymentsConfig } from '../../config';
import { AppError } from '../../platform/errors';

/**
 * The official Stripe client on the platform's secret key; STRIPE_API_URL points it at another
 * server speaking Stripe's protocol (the tests' local stand-in). Network failures are retried by
 * the library with the request's idempotency key, so a retry never moves money twice.
 */
export function createStripeClient(settings: PaymentsConfig): Stripe {
  const url = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Scaffale' },
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === 'https:' ? 443 : 80),
          protocol: url.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** Stripe did not answer, or refused: 503, nothing changed on our side (the caller may retry). */
export const providerFailed = () =>
  new AppError(503, 'payment_provider', 'payments.errors.provider');

/** The transfer group that ties a deal's charge to its transfer in Stripe. */
export const transferGroup = (dealId: string) => `deal_${dealId}`;
