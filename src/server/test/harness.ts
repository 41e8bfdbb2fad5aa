// The usual head of a route test file: an app on a fresh database, its requester and the file's
// members, signed up in one call from the file's beforeAll.
import { createTestApp, type TestApp } from './app';
import { createMember, requester, type MemberOptions, type Member } from './members';

export type Requester = ReturnType<typeof requester>;

/** How long a beforeAll that signs members up may take: sign-up hashes passwords, slow on a busy machine. */
export const SIGN_UP_TIMEOUT = 120_000;

/**
 * buildApp on a fresh database (closed after the file by test/after-file.ts), its `req` and a
 * member per role, signed up one after another in the order given:
 *
 *     let t: TestApp, req: Requester;
 *     let seller: Member, buyer: Member;
 *     beforeAll(async () => {
 *       ({ t, req, seller, buyer } = await appWithMembers({
 *         seller: { username: 'sara_sells', displayName: 'Sara Seller' },
 *         buyer: { displayName: 'Bruno Buyer' },
 *       }));
 *     }, SIGN_UP_TIMEOUT);
 */
export async function appWithMembers<Role extends string>(
  roles: Record<Role, MemberOptions> & { t?: never; req?: never },
  app: Parameters<typeof createTestApp>[0] = {},
): Promise<{ t: TestApp; req: Requester } & Record<Role, Member>> {
  const t = await createTestApp(app);
  const members = {} as Record<Role, Member>;
  for (const role of Object.keys(roles) as Role[]) {
    members[role] = await createMember(t, roles[role]);
  }
  return { ...members, t, req: requester(t) };
}
