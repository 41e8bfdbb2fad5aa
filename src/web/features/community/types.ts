export type {
  Comment,
  CommentPage,
  Post,
  PostAuthor,
  PostBook,
  PostPage,
  ReactionState,
} from '@shared/schemas/community';
