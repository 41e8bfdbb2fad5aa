// The columns most tables share, spelled once (the migrations stay the truth: db/schema.test.ts).
import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** A point in time: `timestamptz`. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** `created_at timestamptz not null default now()`. */
export const createdAt = () => timestamptz('created_at').notNull().defaultNow();

/** `id uuid primary key default gen_random_uuid()`. */
export const uuidPk = () => uuid('id').primaryKey().defaultRandom();
