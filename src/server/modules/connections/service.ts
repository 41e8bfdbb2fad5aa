import { isConnectionId, type Connection, type ConnectionStatus } from '@shared/connections';
import type { Database } from '../../db/client';
import type { Realtime } from '../../platform/realtime';
import type { Notifications } from '../../platform/notifications';
import { SUBJECT } from './notifications';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { isBlockedBetween } from '../../platform/moderation';
import {
  CONNECTION_COLUMNS,
  findConnection,
  findConnectionBetween,
  stateOf,
  type ConnectionRow,
} from './queries';
import { toIso } from '../../db/rows';

export const connectionNotFound = () => notFound('connections.errors.notFound');
const memberNotFound = () => notFound('connections.errors.memberNotFound');

export function toConnection(row: ConnectionRow): Connection {
  return {
    id: row.id,
    requesterId: row.requester_id,
    addresseeId: row.addressee_id,
    status: row.status,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export interface ConnectionServiceDeps {
  database: Database;
  realtime: Realtime;
  notifications: Notifications;
  log: { warn: (obj: object, msg: string) => void };
}

export function createConnectionService({
  database,
  realtime,
  notifications,
  log,
}: ConnectionServiceDeps) {
  /** Both members' open pages refresh; a lost event only delays that, so it never fails the call. */
  const announce = async (row: Pick<ConnectionRow, 'id' | 'requester_id' | 'addressee_id'>) => {
    try {
      await realtime.toUsers([row.requester_id, row.addressee_id], {
        type: 'connection.changed',
        connectionId: row.id,
      });
    } catch (err) {
      log.warn({ err }, 'connection.changed could not be published');
    }
  };

  /**
   * The connection `me` takes part in; anyone else learns nothing of it (404, like a missing one).
   */
  const mine = async (me: string, id: string) => {
    const row = isConnectionId(id) ? await findConnection(database, id) : null;
    if (!row || (row.requester_id !== me && row.addressee_id !== me)) throw connectionNotFound();
    return row;
  };

  return {
    async status(me: string, otherId: string): Promise<ConnectionStatus> {
      const row = await findConnectionBetween(database, me, otherId);
      return { state: stateOf(me, row), connectionId: row?.id ?? null };
    },

    async send(me: string, userId: string): Promise<Connection> {
      if (userId === me) throw badRequest('connections.errors.self');
      const [exists] = await database.query('select 1 from users where id = $1', [userId]);
      if (!exists) throw memberNotFound();
      // A neutral refusal either way while a block stands between the two (blocking is silent).
      if (await isBlockedBetween((t, p) => database.query(t, p), me, userId))
        throw forbidden('blocks.errors.cannotRequest');
      // The unique index on the unordered pair decides between simultaneous requests both ways.
      const [row] = await database.query<ConnectionRow>(
        `insert into connections (requester_id, addressee_id) values ($1, $2)
         on conflict do nothing returning ${CONNECTION_COLUMNS}`,
        [me, userId],
      );
      if (!row) throw conflict('connections.errors.exists');
      await announce(row);
      await notifications.notify({
        recipientId: row.addressee_id,
        type: 'friend.request',
        actorId: me,
        subject: { type: SUBJECT, id: row.id },
      });
      return toConnection(row);
    },

    async accept(me: string, id: string): Promise<Connection> {
      const current = await mine(me, id);
      if (current.status === 'accepted') throw conflict('connections.errors.alreadyFriends');
      if (current.addressee_id !== me) throw forbidden('connections.errors.addresseeOnly');
      const [row] = await database.query<ConnectionRow>(
        `update connections set status = 'accepted', updated_at = now()
         where id = $1 and addressee_id = $2 and status = 'pending'
         returning ${CONNECTION_COLUMNS}`,
        [id, me],
      );
      // Cancelled or accepted by another tab between the read and the write.
      if (!row) throw connectionNotFound();
      await announce(row);
      // The request is answered: its notification goes; the requester hears of the answer.
      await notifications.removeForSubject(SUBJECT, row.id);
      await notifications.notify({
        recipientId: row.requester_id,
        type: 'friend.accepted',
        actorId: me,
        subject: { type: SUBJECT, id: row.id },
        data: { userId: me },
      });
      return toConnection(row);
    },

    async decline(me: string, id: string): Promise<void> {
      const current = await mine(me, id);
      if (current.status === 'accepted') throw conflict('connections.errors.alreadyFriends');
      if (current.addressee_id !== me) throw forbidden('connections.errors.addresseeOnly');
      const [row] = await database.query<ConnectionRow>(
        `delete from connections where id = $1 and addressee_id = $2 and status = 'pending'
         returning ${CONNECTION_COLUMNS}`,
        [id, me],
      );
      if (!row) throw connectionNotFound();
      await announce(row);
      await notifications.removeForSubject(SUBJECT, row.id);
    },

    /** Cancels a request one sent, or ends a friendship (either friend). */
    async remove(me: string, id: string): Promise<void> {
      const current = await mine(me, id);
      if (current.status === 'pending' && current.requester_id !== me)
        throw new AppError(403, 'forbidden', 'connections.errors.requesterOnly');
      const [row] = await database.query<ConnectionRow>(
        `delete from connections
         where id = $1 and (
           (status = 'pending' and requester_id = $2) or
           (status = 'accepted' and (requester_id = $2 or addressee_id = $2)))
         returning ${CONNECTION_COLUMNS}`,
        [id, me],
      );
      if (!row) throw connectionNotFound();
      await announce(row);
      await notifications.removeForSubject(SUBJECT, row.id);
    },
  };
}
