import { z } from 'zod';
import type { Module } from '../../platform/module';
import { escapeHtml } from '../../platform/mail';
import { isDirectLoopback } from '../../platform/network';
import { sendNotFound } from '../../platform/errors';

const outboxMail = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  createdAt: z.string(),
});

/**
 * The development outbox, holding every reset and confirmation link: answered only when the
 * viewer is switched on and only to a direct loopback client; to anyone else it does not exist.
 */
export const devMailRoutes: Module = async (app, { mailer, config }) => {
  app.addHook('onRequest', async (request, reply) => {
    if (!config.devMailViewer || !isDirectLoopback(request)) return sendNotFound(request, reply);
  });

  app.get(
    '/api/dev/mail',
    {
      schema: {
        tags: ['platform'],
        summary: 'Outbox of e-mails (DEV_MAIL_VIEWER on, direct loopback requests only)',
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }),
        response: { 200: z.array(outboxMail) },
      },
    },
    async (request) => mailer.list(request.query.limit),
  );

  app.get('/dev/mail', { schema: { hide: true } }, async (_request, reply) => {
    const mails = await mailer.list(100);
    const linkify = (text: string) =>
      escapeHtml(text).replace(/(https?:\/\/[^\s<]+)/g, (url) => `<a href="${url}">${url}</a>`);
    const items = mails
      .map(
        (m) => `<article><h2>${escapeHtml(m.subject)}</h2>
<p><strong>To:</strong> ${escapeHtml(m.to)} · <time datetime="${m.createdAt}">${m.createdAt}</time></p>
<pre>${linkify(m.text)}</pre></article>`,
      )
      .join('\n');
    const transport =
      mailer.transport === 'smtp'
        ? '<p>Mail is sent through SMTP; the outbox is not used.</p>'
        : '';
    return reply.type('text/html; charset=utf-8').send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Mail outbox | Scaffale</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}article{border-bottom:1px solid #ddd;padding:1rem 0}pre{white-space:pre-wrap}</style></head>
<body><main><h1>Mail outbox</h1>${transport}${items || '<p>No e-mails yet.</p>'}</main></body></html>`,
    );
  });
};
