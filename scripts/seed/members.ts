/**
 * The demo members: a dozen readers in Italy and the United Kingdom, created through better-auth
 * (real password hashes), confirmed, with profiles. Every one signs in with DEMO_PASSWORD.
 */
import { eq, inArray } from 'drizzle-orm';
import { users } from '../../src/server/db/schema';
import { TERMS_VERSION } from '../../src/shared/constants';
import type { DemoMember, SeedStep } from './types';

export const DEMO_PASSWORD = 'scaffale-demo';

export const demoMembers: DemoMember[] = [
  {
    email: 'giulia.bianchi@example.org',
    username: 'giulia_legge',
    firstName: 'Giulia',
    lastName: 'Bianchi',
    city: 'Milano',
    country: 'Italia',
    language: 'it',
    bio: 'Divoro gialli e classici russi. Scambio volentieri, spedisco in tutta Italia.',
    joinedDaysAgo: 410,
  },
  {
    email: 'marco.rossi@example.org',
    username: 'marco_rossi',
    firstName: 'Marco',
    lastName: 'Rossi',
    city: 'Roma',
    country: 'Italia',
    language: 'it',
    bio: 'Storia antica, fumetti e qualche saggio di economia. Libri tenuti con cura.',
    joinedDaysAgo: 365,
  },
  {
    email: 'francesca.esposito@example.org',
    username: 'fra_esposito',
    firstName: 'Francesca',
    lastName: 'Esposito',
    city: 'Napoli',
    country: 'Italia',
    language: 'it',
    bio: 'Insegnante di lettere. Cerco prime edizioni di Elsa Morante.',
    joinedDaysAgo: 298,
  },
  {
    email: 'luca.ferrari@example.org',
    username: 'lucaferrari',
    firstName: 'Luca',
    lastName: 'Ferrari',
    city: 'Torino',
    country: 'Italia',
    language: 'it',
    bio: 'Fantascienza e fantasy, da Asimov a Le Guin. Preferisco gli scambi.',
    joinedDaysAgo: 240,
  },
  {
    email: 'chiara.romano@example.org',
    username: 'chiara_romano',
    firstName: 'Chiara',
    lastName: 'Romano',
    city: 'Bologna',
    country: 'Italia',
    language: 'it',
    bio: 'Studentessa di architettura: libri illustrati, design e romanzi brevi.',
    joinedDaysAgo: 190,
  },
  {
    email: 'alessandro.colombo@example.org',
    username: 'ale_colombo',
    firstName: 'Alessandro',
    lastName: 'Colombo',
    city: 'Firenze',
    country: 'Italia',
    language: 'it',
    bio: 'Collezionista di Adelphi. Vendo doppioni a prezzi onesti.',
    joinedDaysAgo: 150,
  },
  {
    email: 'sofia.ricci@example.org',
    username: 'sofia_ricci',
    firstName: 'Sofia',
    lastName: 'Ricci',
    city: 'Venezia',
    country: 'Italia',
    language: 'it',
    bio: 'Libri per ragazzi e narrativa contemporanea. Gruppo di lettura il giovedì.',
    joinedDaysAgo: 120,
  },
  {
    email: 'davide.greco@example.org',
    username: 'davidegreco',
    firstName: 'Davide',
    lastName: 'Greco',
    city: 'Palermo',
    country: 'Italia',
    language: 'it',
    bio: 'Sciascia, Camilleri e tutto ciò che parla di Sicilia.',
    joinedDaysAgo: 75,
  },
  {
    email: 'emily.carter@example.org',
    username: 'emily_reads',
    firstName: 'Emily',
    lastName: 'Carter',
    city: 'London',
    country: 'United Kingdom',
    language: 'en',
    bio: 'Living in Milan, reading in two languages. Happy to trade English paperbacks.',
    joinedDaysAgo: 330,
  },
  {
    email: 'james.obrien@example.org',
    username: 'jamesobrien',
    firstName: 'James',
    lastName: "O'Brien",
    city: 'Dublin',
    country: 'Ireland',
    language: 'en',
    bio: 'Irish literature, crime fiction and the odd poetry collection.',
    joinedDaysAgo: 210,
  },
  {
    email: 'olivia.bennett@example.org',
    username: 'olivia_b',
    firstName: 'Olivia',
    lastName: 'Bennett',
    city: 'Manchester',
    country: 'United Kingdom',
    language: 'en',
    bio: 'Learning Italian with graded readers; selling the ones I have finished.',
    joinedDaysAgo: 60,
  },
  {
    email: 'daniel.hughes@example.org',
    username: 'dan_hughes',
    firstName: 'Daniel',
    lastName: 'Hughes',
    city: 'Edinburgh',
    country: 'United Kingdom',
    language: 'en',
    bio: 'History of science and travel writing. Books shipped well wrapped.',
    joinedDaysAgo: 21,
  },
];

/** Demo members, created through better-auth (real password hashes), confirmed, with profiles. */
export const seedMembers: SeedStep = async (ctx) => {
  const { database, auth } = ctx;
  const emails = demoMembers.map((m) => m.email);
  const existing = new Map(
    (
      await database.db
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(inArray(users.email, emails))
    ).map((r) => [r.email.toLowerCase(), r.id]),
  );
  let created = 0;
  for (const member of demoMembers) {
    let id = existing.get(member.email);
    if (!id) {
      const result = await auth.api.signUpEmail({
        body: {
          email: member.email,
          password: DEMO_PASSWORD,
          name: `${member.firstName} ${member.lastName}`,
          username: member.username,
        },
      });
      id = result.user.id;
      const joined = new Date(Date.now() - member.joinedDaysAgo * 24 * 60 * 60 * 1000);
      await database.db
        .update(users)
        .set({
          emailVerified: true,
          firstName: member.firstName,
          lastName: member.lastName,
          bio: member.bio,
          locationCity: member.city,
          locationCountry: member.country,
          preferredLanguage: member.language,
          // Demo members signed up through the form: they accepted the terms when they joined.
          termsAcceptedAt: joined,
          termsVersion: TERMS_VERSION,
          createdAt: joined,
          updatedAt: joined,
        })
        .where(eq(users.id, id));
      created++;
    }
    ctx.members.push({ ...member, id });
  }
  ctx.log(`members: ${created} created, ${demoMembers.length - created} already there`);
};
