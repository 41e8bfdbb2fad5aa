import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { useCallback } from 'react';
import type {
  CreateCommentInput,
  CreatePostInput,
  UpdatePostInput,
} from '@shared/schemas/community';
import { api } from '../../lib/api';
import {
  useRealtimeEvent,
  useRealtimeReconnect,
  useRealtimeTopic,
  type RealtimeEvent,
} from '../../lib/realtime';
import { postTopic } from './contract';
import type { Comment, CommentPage, Post, PostPage, ReactionState } from './types';

export const communityKeys = {
  all: ['community'] as const,
  feed: (tab: 'popular' | 'friends') => ['community', 'feed', tab] as const,
  search: (q: string) => ['community', 'search', q] as const,
  user: (userId: string) => ['community', 'user', userId] as const,
  post: (id: string) => ['community', 'post', id] as const,
  comments: (postId: string) => ['community', 'comments', postId] as const,
};

const enc = encodeURIComponent;
type Paged = { page: number; pageSize: number; total: number };
const nextPage = (last: Paged) =>
  last.page * last.pageSize < last.total ? last.page + 1 : undefined;

function usePostPages(key: readonly unknown[], path: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam, signal }) =>
      api<PostPage>(`${path}${path.includes('?') ? '&' : '?'}page=${pageParam}`, { signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    enabled,
  });
}

/** The popular (everyone) or friends (members) feed, page by page. */
export const useFeed = (tab: 'popular' | 'friends', enabled: boolean) =>
  usePostPages(communityKeys.feed(tab), `/api/community/posts/${tab}`, enabled);

/** Full-text search over posts. */
export const usePostSearch = (q: string, enabled: boolean) =>
  usePostPages(
    communityKeys.search(q),
    `/api/community/posts/search?${new URLSearchParams({ q })}`,
    enabled,
  );

/** A member's posts, newest first (their public profile). */
export const useUserPosts = (userId: string | undefined) =>
  usePostPages(
    communityKeys.user(userId ?? ''),
    `/api/community/users/${enc(userId ?? '')}/posts`,
    !!userId,
  );

const no404Retry = (count: number, err: Error) =>
  count < 1 && (err as { status?: number }).status !== 404;

export function usePost(id: string | undefined) {
  return useQuery({
    queryKey: communityKeys.post(id ?? ''),
    queryFn: ({ signal }) => api<Post>(`/api/community/posts/${enc(id!)}`, { signal }),
    enabled: !!id,
    retry: no404Retry,
  });
}

export function useComments(postId: string | undefined, enabled = true) {
  return useInfiniteQuery({
    queryKey: communityKeys.comments(postId ?? ''),
    queryFn: ({ pageParam, signal }) =>
      api<CommentPage>(`/api/community/posts/${enc(postId!)}/comments?page=${pageParam}`, {
        signal,
      }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    enabled: !!postId && enabled,
    retry: no404Retry,
  });
}

// ---------- cache updates ----------

/** Applies `change` to this post wherever it is held: lists, search, profile and its own page. */
function patchPost(client: QueryClient, id: string, change: (post: Post) => Post | null) {
  client.setQueriesData<InfiniteData<PostPage>>(
    {
      queryKey: communityKeys.all,
      predicate: (q) => ['feed', 'search', 'user'].includes(q.queryKey[1] as string),
    },
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          items: page.items.flatMap((p) => (p.id === id ? (change(p) ?? []) : [p])),
        })),
      },
  );
  client.setQueryData<Post>(communityKeys.post(id), (p) => (p ? (change(p) ?? p) : p));
}

function patchComment(
  client: QueryClient,
  postId: string,
  id: string,
  change: (c: Comment) => Comment,
) {
  client.setQueryData<InfiniteData<CommentPage>>(
    communityKeys.comments(postId),
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          items: page.items.map((c) => (c.id === id ? change(c) : c)),
        })),
      },
  );
}

const refetchLists = (client: QueryClient) =>
  client.invalidateQueries({
    queryKey: communityKeys.all,
    predicate: (q) => ['feed', 'search', 'user'].includes(q.queryKey[1] as string),
  });

// ---------- posts ----------

export function useCreatePost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePostInput) =>
      api<Post>('/api/community/posts', { method: 'POST', body }),
    onSuccess: (post) => {
      client.setQueryData(communityKeys.post(post.id), post);
      void refetchLists(client);
    },
  });
}

export function useUpdatePost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: UpdatePostInput }) =>
      api<Post>(`/api/community/posts/${enc(id)}`, { method: 'PATCH', body: patch }),
    onSuccess: (post) => {
      patchPost(client, post.id, () => post);
      void refetchLists(client);
    },
  });
}

export function useDeletePost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/community/posts/${enc(id)}`, { method: 'DELETE' }),
    onSuccess: (_, id) => {
      patchPost(client, id, (p) => (p.id === id ? null : p));
      client.setQueryData<Post>(communityKeys.post(id), (p) => p && { ...p, status: 'hidden' });
      void refetchLists(client);
    },
  });
}

/** Admins pin (true) or unpin (false) a post: first in the popular tab (at most 3). */
export function usePinPost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, pin }: { id: string; pin: boolean }) =>
      api<Post>(`/api/admin/posts/${enc(id)}/pin`, { method: pin ? 'PUT' : 'DELETE' }),
    onSuccess: (post) => {
      patchPost(client, post.id, (p) => ({ ...p, isPinned: post.isPinned }));
      void refetchLists(client);
      void client.invalidateQueries({ queryKey: ['admin'] });
    },
  });
}

/** Like (true) or unlike (false) a post; the answer's count goes everywhere the post is shown. */
export function usePostLike(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (like: boolean) =>
      api<ReactionState>(`/api/community/posts/${enc(id)}/like`, {
        method: like ? 'PUT' : 'DELETE',
      }),
    onSuccess: (state) =>
      patchPost(client, id, (p) => ({ ...p, likedByMe: state.liked, likeCount: state.likeCount })),
  });
}

// ---------- comments ----------

export function useCreateComment(postId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCommentInput) =>
      api<Comment>(`/api/community/posts/${enc(postId)}/comments`, { method: 'POST', body }),
    onSuccess: () => refreshPostAndComments(client, postId),
  });
}

export function useUpdateComment(postId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, content }: { id: string; content: string }) =>
      api<Comment>(`/api/community/comments/${enc(id)}`, { method: 'PATCH', body: { content } }),
    onSuccess: (comment) => patchComment(client, postId, comment.id, () => comment),
  });
}

export function useDeleteComment(postId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<void>(`/api/community/comments/${enc(id)}`, { method: 'DELETE' }),
    onSuccess: () => refreshPostAndComments(client, postId),
  });
}

export function useCommentLike(postId: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (like: boolean) =>
      api<ReactionState>(`/api/community/comments/${enc(id)}/like`, {
        method: like ? 'PUT' : 'DELETE',
      }),
    onSuccess: (state) =>
      patchComment(client, postId, id, (c) => ({
        ...c,
        likedByMe: state.liked,
        likeCount: state.likeCount,
      })),
  });
}

function refreshPostAndComments(client: QueryClient, postId: string) {
  return Promise.all([
    client.invalidateQueries({ queryKey: communityKeys.post(postId) }),
    client.invalidateQueries({ queryKey: communityKeys.comments(postId) }),
  ]);
}

// ---------- live ----------

/**
 * A post's page stays live: subscribed to `post:<id>` (members), new, edited and hidden comments
 * refetch the comments, like counts are applied as they come, and after a reconnect everything is
 * fetched again (events sent while the socket was down are not replayed).
 */
export function usePostLive(postId: string | undefined, signedIn: boolean) {
  const client = useQueryClient();
  useRealtimeTopic(postId && signedIn ? postTopic(postId) : null);

  useRealtimeEvent(
    'community.comment',
    useCallback(
      (event: RealtimeEvent<'community.comment'>) => {
        if (!postId || event.postId !== postId) return;
        const { commentCount } = event;
        patchPost(client, postId, (p) => ({ ...p, commentCount }));
        void client.invalidateQueries({ queryKey: communityKeys.comments(postId) });
      },
      [client, postId],
    ),
  );

  // A moderator removed or restored the post: fetch it again (404 once removed).
  useRealtimeEvent(
    'community.post',
    useCallback(
      (event: RealtimeEvent<'community.post'>) => {
        if (!postId || event.postId !== postId) return;
        void refreshPostAndComments(client, postId);
        void refetchLists(client);
      },
      [client, postId],
    ),
  );

  useRealtimeEvent(
    'community.reaction',
    useCallback(
      ({ postId: target, commentId, likeCount }: RealtimeEvent<'community.reaction'>) => {
        if (!postId || target !== postId) return;
        if (commentId !== null)
          patchComment(client, postId, commentId, (c) => ({ ...c, likeCount }));
        else patchPost(client, postId, (p) => ({ ...p, likeCount }));
      },
      [client, postId],
    ),
  );

  useRealtimeReconnect(
    useCallback(() => {
      if (postId) void refreshPostAndComments(client, postId);
    }, [client, postId]),
  );
}

/** Lists are refetched after a reconnect. */
export function usePostsLive() {
  const client = useQueryClient();
  useRealtimeReconnect(useCallback(() => void refetchLists(client), [client]));
}
