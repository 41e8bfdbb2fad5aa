import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UploadError, uploadCover } from './uploads';

const uploadFile = vi.hoisted(() => vi.fn());
vi.mock('./api', () => ({ uploadFile }));

const file = new File([new Uint8Array([1, 2, 3])], 'cover.png', { type: 'image/png' });
/** What api.ts's uploadFile rejects with: an ApiError's status, code and translated message. */
const apiError = (status: number, code: string, message: string) =>
  Object.assign(new Error(message), { status, code });
const failWith = async (error: Error) => {
  uploadFile.mockRejectedValueOnce(error);
  return uploadCover(file, () => {}).catch((err: unknown) => err as UploadError);
};

describe('uploadCover', () => {
  beforeEach(() => uploadFile.mockReset());

  it('shows the server’s message when the file store is down (503), as for a refused file', async () => {
    const message = 'The image store is not answering right now.';
    const err = await failWith(apiError(503, 'storage_unavailable', message));
    expect(err).toBeInstanceOf(UploadError);
    expect(err).toMatchObject({ status: 503, message, key: null });
    const refused = await failWith(apiError(413, 'payload_too_large', 'Too large'));
    expect(refused).toMatchObject({ status: 413, message: 'Too large', key: null });
  });

  it('leaves other failures to the caller’s words, and names an expired session', async () => {
    const err = await failWith(apiError(500, 'internal', 'An error occurred.'));
    expect(err).toMatchObject({ status: 500, message: '', key: null });
    const expired = await failWith(apiError(401, 'unauthorized', 'Sign in'));
    expect(expired).toMatchObject({ status: 401, message: '', key: 'sell.upload.sessionExpired' });
  });
});
