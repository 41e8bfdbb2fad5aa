import type { SeedStep } from './types';

interface DemoPost {
  author: string;
  /** A book of the listings seed, by title. */
  book: string;
  /** Hours since it was posted: all within this week, so "popular this week" has them. */
  hoursAgo: number;
  postType?: 'discussion' | 'review' | 'recommendation' | 'question';
  title?: string;
  content: string;
  tags?: string[];
  likedBy: string[];
  /** [author, text, index of the comment it answers (within this post) or undefined] */
  comments?: Array<[string, string, number?]>;
}

export const demoPosts: DemoPost[] = [
  {
    author: 'marco_rossi',
    book: 'SPQR. Storia dell’antica Roma',
    hoursAgo: 5,
    postType: 'review',
    title: 'Roma senza retorica',
    content:
      'Finito ieri sera. Mary Beard racconta mille anni di Roma senza mitologia: i plebei, le donne, gli schiavi.\nSe vi piace la storia ma odiate i manuali, è il libro giusto.',
    tags: ['storia', 'saggi'],
    likedBy: ['giulia_legge', 'lucaferrari', 'fra_esposito', 'emily_reads'],
    comments: [
      ['giulia_legge', 'Me lo segno! Il capitolo su Cicerone com’è?'],
      ['marco_rossi', 'Il migliore, secondo me. Te lo presto quando vuoi.', 0],
      ['lucaferrari', 'Letto l’anno scorso, concordo su tutto.'],
    ],
  },
  {
    author: 'fra_esposito',
    book: 'L’amica geniale',
    hoursAgo: 20,
    postType: 'discussion',
    content:
      'Rileggo L’amica geniale con i miei studenti di quinta. Lila o Lenù? In classe siamo divisi a metà, e voi?',
    tags: ['ferrante', 'scuola'],
    likedBy: ['giulia_legge', 'chiara_romano', 'emily_reads'],
    comments: [
      ['chiara_romano', 'Lila, sempre Lila.'],
      ['giulia_legge', 'Lenù: è lei che scrive tutto, alla fine.'],
      ['emily_reads', 'I read it in English first, then in Italian. Team Lila!'],
    ],
  },
  {
    author: 'emily_reads',
    book: 'Pride and Prejudice',
    hoursAgo: 30,
    postType: 'recommendation',
    content:
      'Comfort read of the week. Every time I reread it I side with a different character. Anyone up for a slow read-along in December?',
    tags: ['classics', 'austen'],
    likedBy: ['jamesobrien', 'olivia_b', 'giulia_legge'],
    comments: [
      ['olivia_b', 'Count me in!'],
      ['jamesobrien', 'Only if we do Persuasion next.', 0],
    ],
  },
  {
    author: 'lucaferrari',
    book: 'Dune',
    hoursAgo: 44,
    postType: 'review',
    title: 'Arrakis, finalmente',
    content:
      'Ci ho messo tre tentativi ma stavolta l’ho finito. Le prime cento pagine sono dure, poi non si molla più. La spezia deve fluire.',
    tags: ['fantascienza'],
    likedBy: ['marco_rossi', 'ale_colombo'],
    comments: [['ale_colombo', 'Adesso Messia di Dune, senza pause!']],
  },
  {
    author: 'giulia_legge',
    book: 'Delitto e castigo',
    hoursAgo: 52,
    postType: 'question',
    content:
      'Quale traduzione di Delitto e castigo consigliate? Ho una vecchia edizione e la lingua mi sembra un po’ datata.',
    tags: ['dostoevskij', 'traduzioni'],
    likedBy: ['marco_rossi'],
    comments: [
      ['fra_esposito', 'Quella di Serena Prina per Feltrinelli è molto scorrevole.'],
      ['marco_rossi', 'Confermo Prina.', 0],
    ],
  },
  {
    author: 'jamesobrien',
    book: 'The Hobbit',
    hoursAgo: 60,
    content:
      'Reading The Hobbit aloud to my kids, one chapter a night. The riddles in the dark chapter had them under the blankets.',
    likedBy: ['emily_reads', 'olivia_b', 'dan_hughes'],
  },
  {
    author: 'chiara_romano',
    book: 'Le città invisibili',
    hoursAgo: 75,
    postType: 'recommendation',
    content:
      'Calvino da leggere a piccoli sorsi: una città a sera. Perché nessuno me l’aveva consigliato prima?',
    tags: ['calvino'],
    likedBy: ['fra_esposito'],
  },
  {
    author: 'sofia_ricci',
    book: 'Il Gattopardo',
    hoursAgo: 90,
    content: '"Se vogliamo che tutto rimanga com’è, bisogna che tutto cambi." Sempre attuale.',
    likedBy: ['davidegreco'],
    comments: [['davidegreco', 'Palermo ringrazia.']],
  },
  {
    author: 'olivia_b',
    book: 'The Hunger Games',
    hoursAgo: 110,
    postType: 'discussion',
    content: 'Rereading the trilogy before the new film. It holds up better than I expected.',
    likedBy: [],
  },
  {
    author: 'davidegreco',
    book: 'Gomorra',
    hoursAgo: 130,
    content: 'Letto tutto d’un fiato. Non è un romanzo facile, ma è necessario.',
    likedBy: ['sofia_ricci'],
  },
];

/**
 * Community posts about the demo books, with likes and comments among the demo members, all
 * within this week: the popular tab and Giulia's friends tab both have content. Counts come
 * from the database's triggers. A post already there (same author and text) is kept.
 */
export const seedCommunity: SeedStep = async (ctx) => {
  const { database } = ctx;
  const byUsername = new Map(ctx.members.map((m) => [m.username, m.id]));
  let created = 0;
  for (const p of demoPosts) {
    const authorId = byUsername.get(p.author);
    if (!authorId) continue;
    const [exists] = await database.query(
      'select 1 from community_posts where user_id = $1 and content = $2',
      [authorId, p.content],
    );
    if (exists) continue;
    const [book] = await database.query<{ id: string }>(
      'select id from books where title = $1 order by created_at limit 1',
      [p.book],
    );
    const [post] = await database.query<{ id: string }>(
      `insert into community_posts (user_id, book_id, title, content, post_type, tags, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, now() - make_interval(hours => $7::int),
         now() - make_interval(hours => $7::int))
       returning id`,
      [
        authorId,
        book?.id ?? null,
        p.title ?? null,
        p.content,
        p.postType ?? 'discussion',
        p.tags ?? [],
        p.hoursAgo,
      ],
    );
    created++;
    for (const liker of p.likedBy) {
      const id = byUsername.get(liker);
      if (id)
        await database.query(
          `insert into post_reactions (post_id, user_id) values ($1, $2) on conflict do nothing`,
          [post.id, id],
        );
    }
    const commentIds: string[] = [];
    for (const [i, [who, text, replyTo]] of (p.comments ?? []).entries()) {
      const id = byUsername.get(who);
      if (!id) continue;
      const [comment] = await database.query<{ id: string }>(
        `insert into post_comments (post_id, user_id, parent_comment_id, content, created_at, updated_at)
         values ($1, $2, $3, $4, now() - make_interval(hours => $5::int) + make_interval(mins => $6::int),
           now() - make_interval(hours => $5::int) + make_interval(mins => $6::int))
         returning id`,
        [
          post.id,
          id,
          replyTo === undefined ? null : commentIds[replyTo],
          text,
          p.hoursAgo,
          10 * (i + 1),
        ],
      );
      commentIds.push(comment.id);
    }
    // The author likes the first comment: comment likes have content too.
    if (commentIds[0])
      await database.query(
        `insert into comment_reactions (comment_id, user_id) values ($1, $2) on conflict do nothing`,
        [commentIds[0], authorId],
      );
  }
  ctx.log(`community: ${created} posts created, ${demoPosts.length - created} already there`);
};
