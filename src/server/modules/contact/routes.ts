import { z } from 'zod';
import type { Module } from '../../platform/module';
import { contactMessageSchema } from '@shared/schemas/contact';
import { sql } from '../../db/sql';
import { requestLanguage, t } from '../../platform/i18n';

/** Contact messages are stored first, then e-mailed to SUPPORT_EMAIL; a mail failure loses nothing. */
export const contactRoutes: Module = async (app, { database, mailer, config }) => {
  app.post(
    '/api/contact',
    {
      config: { rateLimit: { max: 5, timeWindow: '10 minutes' } },
      schema: {
        tags: ['contact'],
        summary: 'Send a message to the Scaffale team',
        body: contactMessageSchema,
        response: { 201: z.object({ id: z.number(), received: z.literal(true) }) },
      },
    },
    async (request, reply) => {
      const language = requestLanguage(request);
      const input = request.body;
      const [row] = await database.query<{ id: number | string }>(
        sql`insert into contact_messages (name, email, subject, message, language, ip)
            values (${input.name}, ${input.email}, ${input.subject}, ${input.message},
              ${language}, ${request.ip})
            returning id`,
      );
      const saved = { id: Number(row.id) };
      const subjectLabel = t('en', `contact.subjects.${input.subject}`);
      try {
        await mailer.send({
          to: config.supportEmail,
          replyTo: input.email,
          subject: `[Scaffale contact #${saved.id}] ${subjectLabel}: ${input.name}`,
          text: `From: ${input.name} <${input.email}>\nSubject: ${subjectLabel}\nLanguage: ${language}\n\n${input.message}\n`,
        });
      } catch (err) {
        request.log.error({ err, contactId: saved.id }, 'contact message stored but not e-mailed');
      }
      return reply.status(201).send({ id: saved.id, received: true as const });
    },
  );
};
