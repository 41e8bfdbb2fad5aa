import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const base = { AUTH_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/scaffale-test-data' };

describe('payments settings', () => {
  it('are off without a secret key: the app works as it does without a provider', () => {
    expect(loadConfig(base).payments).toBeUndefined();
    expect(loadConfig({ ...base, STRIPE_WEBHOOK_SECRET: 'whsec_x' }).payments).toBeUndefined();
  });

  it('are on with a key and the webhook’s secret, with the documented defaults', () => {
    expect(
      loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' })
        .payments,
    ).toEqual({
      secretKey: 'sk_test_x',
      webhookSecret: 'whsec_x',
      publishableKey: undefined,
      apiUrl: undefined,
      buyerFeePercent: 5,
      buyerFeeFixedCents: 70,
      payWithinHours: 48,
      accountCountry: 'IT',
    });
  });

  it('read the fee, the time limit and a local Stripe', () => {
    const payments = loadConfig({
      ...base,
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      STRIPE_API_URL: 'http://127.0.0.1:12111/',
      STRIPE_ACCOUNT_COUNTRY: 'de',
      PAYMENTS_BUYER_FEE_PERCENT: '4.5',
      PAYMENTS_BUYER_FEE_FIXED: '0',
      PAYMENTS_PAY_WITHIN_HOURS: '24',
    }).payments;
    expect(payments).toMatchObject({
      apiUrl: 'http://127.0.0.1:12111',
      accountCountry: 'DE',
      buyerFeePercent: 4.5,
      buyerFeeFixedCents: 0,
      payWithinHours: 24,
    });
  });

  it('stop the server with a message naming what is wrong', () => {
    const on = { ...base, STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(
      /STRIPE_WEBHOOK_SECRET must be set/,
    );
    expect(() => loadConfig({ ...on, PAYMENTS_BUYER_FEE_PERCENT: '60' })).toThrow(
      /PAYMENTS_BUYER_FEE_PERCENT must be at most 50/,
    );
    expect(() => loadConfig({ ...on, PAYMENTS_BUYER_FEE_PERCENT: '-1' })).toThrow(
      /PAYMENTS_BUYER_FEE_PERCENT/,
    );
    expect(() => loadConfig({ ...on, STRIPE_API_URL: 'ftp://x' })).toThrow(/STRIPE_API_URL/);
    expect(() => loadConfig({ ...on, STRIPE_ACCOUNT_COUNTRY: 'Italy' })).toThrow(
      /STRIPE_ACCOUNT_COUNTRY/,
    );
  });
});
