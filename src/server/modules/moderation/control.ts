import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { isAbsolute, join } from 'node:path';
import type { ModuleApp, ModuleDeps } from '../../platform/module';
import { runAdminCommand } from './roles';
import { writeSnapshot } from '../../db/backup';

/** The embedded database's control socket, beside its files (DATA_DIR/admin.sock). */
export const controlSocketPath = (dataDir: string) => join(dataDir, 'admin.sock');

/** What the running server answers on its control socket. */
export type ControlAnswer = { ok: boolean; output: string };

/** Asks the running server on its control socket (`npm run admin`, `npm run backup`). */
export function askControlSocket(path: string, args: string[]): Promise<ControlAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ args })}\n`));
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => {
      try {
        resolve(JSON.parse(answer) as ControlAnswer);
      } catch {
        reject(new Error('the server closed the control socket without an answer'));
      }
    });
    socket.on('error', reject);
  });
}

/**
 * The embedded database belongs to one process at a time (its folder is locked), so while the
 * server runs `npm run admin` cannot open it: it asks the server instead, through a Unix socket
 * in DATA_DIR that only the owner of DATA_DIR may open (mode 0600) — exactly who may read the
 * database files anyway. One JSON line in ({"args": ["grant", "a@b.c"]}), one out. `npm run backup`
 * asks it for a snapshot the same way ({"args": ["backup", "/path/of/new/folder"]}).
 * On PostgreSQL (DATABASE_URL) the command connects to the database itself; no socket.
 */
export async function startAdminControl(app: ModuleApp, deps: ModuleDeps): Promise<void> {
  const { database, config } = deps;
  // Not in tests (createTestApp turns background services off), nor on PostgreSQL.
  if (!database.pglite || !deps.backgroundJobs) return;
  const path = controlSocketPath(config.dataDir);
  // npm run backup: {"args": ["backup", "/absolute/new/folder"]} (src/server/db/backup.ts).
  const backup = async (folder: string | undefined) => {
    if (!folder || !isAbsolute(folder))
      return { ok: false, output: 'Usage: {"args": ["backup", "/absolute/new/folder"]}' };
    const { heldMs } = await writeSnapshot(database.pglite!, config.dataDir, folder, {
      uploads: config.storage.kind === 'local',
    });
    return { ok: true, output: `held ${Math.round(heldMs)} ms` };
  };
  // We hold the data folder's lock: a socket file left here belongs to a dead process.
  if (existsSync(path)) unlinkSync(path);
  const server: Server = createServer((socket) => {
    let input = '';
    socket.setEncoding('utf8');
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('data', (chunk) => {
      input += chunk;
      if (input.length > 4096) return socket.destroy();
      if (!input.includes('\n')) return;
      let args: string[] = [];
      try {
        const parsed = JSON.parse(input.slice(0, input.indexOf('\n'))) as { args?: unknown };
        if (Array.isArray(parsed.args)) args = parsed.args.map(String).slice(0, 4);
      } catch {
        // answered as a usage error below
      }
      // A backup of a large database may take longer than the idle timeout.
      if (args[0] === 'backup') socket.setTimeout(0);
      (args[0] === 'backup' ? backup(args[1]) : runAdminCommand(database, args))
        .then((result) => socket.end(`${JSON.stringify(result)}\n`))
        .catch((err: Error) => {
          app.log.error({ err }, 'admin command failed');
          socket.end(`${JSON.stringify({ ok: false, output: err.message })}\n`);
        });
    });
    socket.on('error', () => {});
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
    chmodSync(path, 0o600);
  } catch (err) {
    app.log.warn(
      { err, path },
      'admin control socket not available; stop the server to run npm run admin',
    );
    return;
  }
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (existsSync(path)) unlinkSync(path);
  });
}
