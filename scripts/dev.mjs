// npm run dev: the API server with reload on change (tsx watch) and Vite's dev server with hot
// module reload, which proxies /api to the server. Open http://localhost:5173.
import 'dotenv/config';
import { spawn } from 'node:child_process';

const procs = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src/server/main.ts'], {
    stdio: 'inherit',
    // The browser talks to Vite: same-origin checks (CSRF, sign-in redirects) and e-mail links
    // must name Vite's address. The outbox viewer is on unless this is production.
    env: {
      PUBLIC_URL: 'http://localhost:5173',
      ...process.env,
      DEV_MAIL_VIEWER:
        process.env.DEV_MAIL_VIEWER || (process.env.NODE_ENV === 'production' ? '' : 'true'),
      // Readable logs for the person running it, even through a pipe (LOG_FORMAT overrides).
      LOG_FORMAT: process.env.LOG_FORMAT || 'pretty',
    },
  }),
  spawn('npx', ['vite', '--config', 'vite.config.ts'], { stdio: 'inherit', env: process.env }),
];
const stop = () => procs.forEach((p) => p.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const p of procs)
  p.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
