import { numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { users } from './accounts';

/**
 * A seller's rule for a bundle's shipping (issue 22 item 3, migration 0044): a null amount (or
 * no row) is the highest single shipping cost of the bundle's books; an amount, that price.
 */
export const bundleRules = pgTable('bundle_rules', {
  sellerId: text('seller_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  shippingAmount: numeric('shipping_amount', { precision: 10, scale: 2 }),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});
