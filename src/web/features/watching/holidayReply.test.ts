import { describe, expect, it } from 'vitest';
import { translate, type TOptions } from '@shared/translator';
import type { TFunction } from '../../lib/translator';
import en from '../../locales/en.json';
import itCatalogue from '../../locales/it.json';
import { holidayReplyText } from './holidayReply';

describe('the holiday reply in a chat', () => {
  it('reads the default words in the reader’s language, or the seller’s own', () => {
    const tEn: TFunction = (key: string, options?: TOptions | string) =>
      translate(en, 'en', key, options);
    const tIt: TFunction = (key: string, options?: TOptions | string) =>
      translate(itCatalogue, 'it', key, options);
    expect(holidayReplyText('holiday|2026-08-20|', 'Sara', tEn, 'en')).toBe(
      'Sara is on holiday until 08/20/2026 and will answer when back. (Automatic reply)',
    );
    expect(holidayReplyText('holiday|2026-08-20|', 'Sara', tIt, 'it')).toBe(
      'Sara è in vacanza fino al giorno 20/08/2026 e risponderà al ritorno. (Risposta automatica)',
    );
    expect(holidayReplyText('holiday|2026-08-20|Torno presto', 'Sara', tEn, 'en')).toBe(
      'Automatic reply from Sara: Torno presto',
    );
    expect(holidayReplyText('left', 'Sara', tEn, 'en')).toBeNull();
    expect(holidayReplyText('holiday|soon|', 'Sara', tEn, 'en')).toBeNull();
  });
});
