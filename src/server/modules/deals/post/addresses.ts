import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADDRESSES_MAX,
  addressInputSchema,
  savedAddressAnswerSchema,
  savedAddressesSchema,
  type PostalAddress,
  type SavedAddress,
} from '@shared/schemas/dealPost';
import { isUuid } from '@shared/schemas/common';
import type { AppDeps } from '../../../platform/module';
import { currentUser } from '../../../platform/auth';
import { conflict, errorSchema, notFound } from '../../../platform/errors';
import { idParam, memberRoutes } from '../../../platform/route-presets';
import { inTransaction, type Query } from '../../../db/tx';
import { z } from 'zod';

/**
 * A member's saved shipping addresses (settings, decision 0074): at most ADDRESSES_MAX, each
 * only ever read by its owner. Giving one to a deal copies it (post/routes.ts).
 */
const addressNotFound = () => notFound('deals.post.errors.addressNotFound');

interface AddressRow {
  id: string;
  name: string;
  street: string;
  postal_code: string;
  city: string;
  region: string;
  country: string;
  phone: string;
}

const COLUMNS = 'id::text, name, street, postal_code, city, region, country, phone';

export const toAddress = (r: AddressRow): SavedAddress => ({
  id: r.id,
  name: r.name,
  street: r.street,
  postalCode: r.postal_code,
  city: r.city,
  region: r.region,
  country: r.country,
  phone: r.phone,
});

/** Member `userId`'s saved address `id` as a postal address, or null when it is not theirs. */
export async function ownAddress(
  q: Query,
  userId: string,
  id: string,
): Promise<PostalAddress | null> {
  if (!isUuid(id)) return null;
  const [row] = await q<AddressRow>(
    `select ${COLUMNS} from member_addresses where id = $1 and user_id = $2`,
    [id, userId],
  );
  if (!row) return null;
  const { id: _id, ...address } = toAddress(row);
  return address;
}

export function registerAddressRoutes(parent: FastifyInstance, deps: AppDeps) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { database } = deps;
  const query: Query = (text, params) => database.query(text, params);
  const { security, signedIn, writes } = memberRoutes(app, 'deals', 30);
  const tags = ['addresses'];
  const params = idParam('addressId');
  const list = async (userId: string) =>
    (
      await query<AddressRow>(
        `select ${COLUMNS} from member_addresses where user_id = $1
         order by created_at, id limit ${ADDRESSES_MAX}`,
        [userId],
      )
    ).map(toAddress);

  app.get(
    '/api/me/addresses',
    {
      ...signedIn,
      schema: {
        tags,
        security,
        summary: 'My saved shipping addresses (at most 10), oldest first',
        response: { 200: savedAddressesSchema, 401: errorSchema },
      },
    },
    async (request) => ({ items: await list(currentUser(request).id) }),
  );

  app.post(
    '/api/me/addresses',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary: 'Save a shipping address',
        description: 'At most 10 per member (409 beyond).',
        body: addressInputSchema,
        response: {
          201: savedAddressAnswerSchema,
          400: errorSchema,
          401: errorSchema,
          409: errorSchema,
          429: errorSchema,
        },
      },
    },
    async (request, reply) => {
      const me = currentUser(request).id;
      const a = request.body;
      const row = await inTransaction(database, async (q) => {
        // The member's row serialises two saves at once, so the cap holds under a race.
        await q('select id from users where id = $1 for no key update', [me]);
        const [{ n }] = await q<{ n: number }>(
          'select count(*)::int as n from member_addresses where user_id = $1',
          [me],
        );
        if (n >= ADDRESSES_MAX) throw conflict('deals.post.errors.tooManyAddresses');
        const [inserted] = await q<AddressRow>(
          `insert into member_addresses (user_id, name, street, postal_code, city, region,
             country, phone)
           values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${COLUMNS}`,
          [me, a.name, a.street, a.postalCode, a.city, a.region, a.country, a.phone],
        );
        return inserted;
      });
      reply.code(201);
      return { address: toAddress(row) };
    },
  );

  app.put(
    '/api/me/addresses/:addressId',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary: 'Change a saved address (deals it was given to keep their copy)',
        params,
        body: addressInputSchema,
        response: {
          200: savedAddressAnswerSchema,
          400: errorSchema,
          401: errorSchema,
          404: errorSchema,
          429: errorSchema,
        },
      },
    },
    async (request) => {
      const me = currentUser(request).id;
      const { addressId } = request.params;
      if (!isUuid(addressId)) throw addressNotFound();
      const a = request.body;
      const [row] = await query<AddressRow>(
        `update member_addresses set name = $3, street = $4, postal_code = $5, city = $6,
           region = $7, country = $8, phone = $9
         where id = $1 and user_id = $2 returning ${COLUMNS}`,
        [addressId, me, a.name, a.street, a.postalCode, a.city, a.region, a.country, a.phone],
      );
      if (!row) throw addressNotFound();
      return { address: toAddress(row) };
    },
  );

  app.delete(
    '/api/me/addresses/:addressId',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary: 'Delete a saved address (deals it was given to keep their copy)',
        params,
        response: { 200: z.object({ ok: z.literal(true) }), 401: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const { addressId } = request.params;
      if (!isUuid(addressId)) throw addressNotFound();
      const rows = await query(
        'delete from member_addresses where id = $1 and user_id = $2 returning id',
        [addressId, currentUser(request).id],
      );
      if (rows.length === 0) throw addressNotFound();
      return { ok: true as const };
    },
  );
}
