import { dataText, type TFunction } from '../../lib/translator';

/**
 * A reportable kind's name ('listing' reads "annuncio"). Kinds are registered on the server, so
 * one the catalogue does not name yet reads as itself.
 */
export function kindName(t: TFunction, kind: string): string {
  return dataText(t, `moderation.kinds.${kind}`, { defaultValue: kind });
}
