import { Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '@web/lib/reactI18n';
import { ApiError } from '../../lib/api';
import { BookPicker, type PickedBook } from './BookPicker';
import { ContentField } from './ContentField';
import { PostImageField } from './PostImageField';
import { parseTags } from './tags';
import { useCreatePost, useUpdatePost } from './api';
import {
  POST_CONTENT_MAX,
  POST_CONTENT_WARN,
  POST_TAG_MAX,
  POST_TAGS_MAX,
  POST_TITLE_MAX,
  POST_TYPES,
} from './contract';
import type { Post } from './types';
import type { UpdatePostInput } from '@shared/schemas/community';

type Errors = {
  book?: string;
  content?: string;
  title?: string;
  postType?: string;
  tags?: string;
  image?: string;
  form?: string;
};
const sameTags = (a: string[], b: string[]) => a.join('\n') === b.join('\n');

/**
 * Writing a post about a book (create), or changing one's own (edit: marked edited afterwards).
 * Validated here (a book, text within 1 to POST_CONTENT_MAX, title and tags within their limits)
 * and again by the server, whose errors show in the dialog.
 */
export function PostFormDialog({
  opened,
  onClose,
  post,
  onSaved,
  returnFocus = true,
}: {
  opened: boolean;
  onClose: () => void;
  /** Edit this post; create a new one without it. */
  post?: Post | null;
  onSaved?: (post: Post) => void;
  /** Focus goes back to what opened the dialog on close (not when the page moves it elsewhere). */
  returnFocus?: boolean;
}) {
  const { t } = useTranslation();
  const [book, setBook] = useState<PickedBook | null>(null);
  const [content, setContent] = useState('');
  const [title, setTitle] = useState('');
  const [postType, setPostType] = useState<Post['postType']>('discussion');
  const [tagsText, setTagsText] = useState('');
  const [imageUrl, setImageUrl] = useState('');
  const [uploading, setUploading] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const create = useCreatePost();
  const update = useUpdatePost();
  const pending = create.isPending || update.isPending || uploading;

  // Every opening starts from the post being edited, or from nothing; a fresher copy of the same
  // post arriving meanwhile (a like, a comment count) must not wipe what is being typed.
  const latest = useRef(post);
  latest.current = post;
  const postId = post?.id ?? null;
  useEffect(() => {
    if (!opened) return;
    const post = latest.current;
    setBook(
      post?.book
        ? {
            id: post.book.id,
            title: post.book.title,
            author: post.book.author,
            coverUrl: post.book.coverImageUrl,
          }
        : null,
    );
    setContent(post?.content ?? '');
    setTitle(post?.title ?? '');
    setPostType(post?.postType ?? 'discussion');
    setTagsText(post?.tags.join(', ') ?? '');
    setImageUrl(post?.imageUrl ?? '');
    setErrors({});
  }, [opened, postId]);

  const validate = () => {
    const next: typeof errors = {};
    const text = content.trim();
    if (!book) next.book = t('communityApi.validation.bookRequired');
    if (!text) next.content = t('communityApi.validation.contentRequired');
    else if (text.length > POST_CONTENT_MAX)
      next.content = t('communityApi.validation.contentTooLong');
    if (title.trim().length > POST_TITLE_MAX)
      next.title = t('communityApi.validation.titleTooLong');
    const tags = parseTags(tagsText);
    if (tags.length > POST_TAGS_MAX) next.tags = t('communityApi.validation.tooManyTags');
    else if (tags.some((tag) => tag.length > POST_TAG_MAX))
      next.tags = t('communityApi.validation.tagTooLong');
    setErrors(next);
    return Object.keys(next).length === 0;
  };

  const showServerError = (err: unknown) => {
    if (err instanceof ApiError) {
      const fields = err.fields ?? {};
      const tagError = Object.entries(fields).find(([k]) => k === 'tags' || k.startsWith('tags.'));
      const shown = {
        book: fields.bookId,
        content: fields.content,
        title: fields.title,
        postType: fields.postType,
        tags: tagError?.[1],
        image: fields.imageUrl,
      };
      setErrors({
        ...shown,
        form: Object.values(shown).some(Boolean) ? undefined : err.message,
      });
    } else setErrors({ form: t('errors.general') });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pending || !validate()) return;
    const text = content.trim();
    const heading = title.trim();
    const tags = parseTags(tagsText);
    if (post) {
      const patch: UpdatePostInput = {};
      if (text !== post.content) patch.content = text;
      if (book && book.id !== post.book?.id) patch.bookId = book.id;
      if (heading !== (post.title ?? '')) patch.title = heading;
      if (postType !== post.postType) patch.postType = postType;
      if (!sameTags(tags, post.tags)) patch.tags = tags;
      if (imageUrl !== (post.imageUrl ?? '')) patch.imageUrl = imageUrl || null;
      if (!Object.keys(patch).length) return onClose();
      update.mutate(
        { id: post.id, patch },
        { onSuccess: (saved) => (onSaved?.(saved), onClose()), onError: showServerError },
      );
    } else
      create.mutate(
        {
          bookId: book!.id,
          content: text,
          ...(heading ? { title: heading } : {}),
          postType,
          ...(tags.length ? { tags } : {}),
          ...(imageUrl ? { imageUrl } : {}),
        },
        { onSuccess: (saved) => (onSaved?.(saved), onClose()), onError: showServerError },
      );
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={post ? t('community.form.editTitle') : t('community.form.createTitle')}
      size="lg"
      returnFocus={returnFocus}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <BookPicker value={book} onChange={setBook} error={errors.book} />
          <TextInput
            label={t('community.form.title')}
            description={t('community.form.titleHint', { max: POST_TITLE_MAX })}
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            maxLength={POST_TITLE_MAX}
            error={errors.title}
          />
          <NativeSelect
            label={t('community.form.postType')}
            value={postType}
            onChange={(e) => setPostType(e.currentTarget.value as Post['postType'])}
            data={POST_TYPES.map((type) => ({
              value: type,
              label: t(`community.postTypes.${type}`),
            }))}
            error={errors.postType}
          />
          <ContentField
            label={t('community.form.content')}
            placeholder={t('community.form.contentPlaceholder')}
            value={content}
            onChange={setContent}
            max={POST_CONTENT_MAX}
            warnAt={POST_CONTENT_WARN}
            error={errors.content}
          />
          <TextInput
            label={t('community.form.tags')}
            description={t('community.form.tagsHint', { max: POST_TAGS_MAX, length: POST_TAG_MAX })}
            placeholder={t('community.form.tagsPlaceholder')}
            value={tagsText}
            onChange={(e) => setTagsText(e.currentTarget.value)}
            error={errors.tags}
          />
          <PostImageField
            value={imageUrl}
            onChange={setImageUrl}
            onBusyChange={setUploading}
            error={errors.image}
          />
          {errors.form && (
            <Text size="sm" c="var(--mantine-color-error)" role="alert">
              {errors.form}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={pending}>
              {post ? t('community.form.save') : t('community.form.publish')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
