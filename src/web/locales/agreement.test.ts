import { describe, expect, it } from 'vitest';
import itCatalogue from './it.json';

/**
 * The Italian catalogue (the web's texts and the server's e-mails) checked for the agreement
 * slips a translation makes most: a masculine article, demonstrative, possessive or participle
 * beside the feminine nouns the product uses ("questo inserzione", "i tuoi offerte", "offerta
 * accettato"), and the reverse for its masculine nouns ("la annuncio"). Not a grammar: a net
 * for the common patterns, which fails with the key and the words it found.
 */

const FEMININE = [
  'inserzione',
  'recensione',
  'offerta',
  'segnalazione',
  'notifica',
  'richiesta',
  'conversazione',
  'transazione',
  'vendita',
  'pagina',
  'password',
  'e-mail',
  'email',
  'lingua',
  'copia',
  'foto',
  'immagine',
  'valutazione',
  'amicizia',
  'sessione',
  'impostazione',
  'chat',
  'risposta',
  'condizione',
  'lista',
  'libreria',
  'modifica',
  'azione',
  'decisione',
  'pubblicità',
  'promozione',
  'campagna',
  'copertina',
  'categoria',
  'sezione',
  'scheda',
  'città',
  'bacheca',
  'descrizione',
  'posizione',
  'spedizione',
];
const FEMININE_PLURAL = [
  'inserzioni',
  'recensioni',
  'offerte',
  'segnalazioni',
  'notifiche',
  'richieste',
  'conversazioni',
  'transazioni',
  'vendite',
  'pagine',
  'immagini',
  'valutazioni',
  'impostazioni',
  'risposte',
  'condizioni',
  'azioni',
  'pubblicità',
  'copertine',
  'categorie',
  'sezioni',
  'descrizioni',
];
const MASCULINE = ['annuncio', 'messaggio', 'libro', 'commento', 'profilo', 'account', 'ordine'];

const words = (list: string[]) => list.join('|');
const MASC_BEFORE =
  'il|lo|un|uno|questo|quello|quel|del|dello|al|allo|dal|dallo|nel|nello|sul|sullo|' +
  'mio|tuo|suo|nostro|vostro|nuovo|primo|ultimo|stesso|altro|nessun|alcun|ciascun';
const MASC_PLURAL_BEFORE =
  'i|gli|questi|quelli|quei|dei|degli|ai|agli|dai|dagli|nei|negli|sui|sugli|' +
  'miei|tuoi|suoi|nostri|vostri|nuovi|tutti|altri|alcuni|pochi|molti|primi|ultimi';
const FEM_BEFORE =
  'la|una|questa|quella|della|alla|dalla|nella|sulla|mia|tua|sua|nostra|vostra|nuova|prima|ultima';
const MASC_PARTICIPLES =
  'accettato|rifiutato|inviato|ritirato|pubblicato|rimosso|eliminato|salvato|creato|' +
  'aggiornato|scaduto|chiuso|attivo|sospeso|completato|annullato|modificato|nascosto|' +
  'bloccato|disattivato|attivato|stato|letto|ricevuto|segnalato|venduto|riservato';

const PATTERNS: RegExp[] = [
  new RegExp(`\\b(?:${MASC_BEFORE})\\s+(?:${words(FEMININE)})\\b`, 'giu'),
  new RegExp(`\\b(?:${MASC_PLURAL_BEFORE})\\s+(?:${words(FEMININE_PLURAL)})\\b`, 'giu'),
  new RegExp(`\\b(?:${FEM_BEFORE})\\s+(?:${words(MASCULINE)})\\b`, 'giu'),
  new RegExp(`\\b(?:${words(FEMININE)})\\s+(?:è\\s+)?(?:${MASC_PARTICIPLES})\\b`, 'giu'),
];

/** Every text of a catalogue with its key. */
function texts(node: unknown, path = ''): [string, string][] {
  if (typeof node === 'string') return [[path, node]];
  if (node && typeof node === 'object')
    return Object.entries(node).flatMap(([k, v]) => texts(v, path ? `${path}.${k}` : k));
  return [];
}

/**
 * A text that names a reportable kind ({{kind}}: "Segnala questo {{kind}}") is read with each
 * kind's label, unless the catalogue words it for that kind (`key_<kind>`, the `context` the code
 * passes), as the web and the e-mails do.
 */
function readings(catalogue: unknown): [string, string][] {
  const all = texts(catalogue);
  const keys = new Set(all.map(([k]) => k));
  const kinds = all
    .filter(([k]) => k.startsWith('moderation.kinds.'))
    .map(([k, label]) => [k.slice('moderation.kinds.'.length), label] as const);
  return all.flatMap(([key, text]): [string, string][] => {
    if (!text.includes('{{kind}}')) return [[key, text]];
    return kinds
      .filter(([kind]) => !keys.has(`${key}_${kind}`))
      .map(([kind, label]) => [`${key} (${kind})`, text.replaceAll('{{kind}}', label)]);
  });
}

export function agreementSlips(catalogue: unknown): string[] {
  const found: string[] = [];
  for (const [key, text] of readings(catalogue))
    for (const re of PATTERNS) for (const m of text.matchAll(re)) found.push(`${key}: ${m[0]}`);
  return found;
}

describe('the Italian catalogue', () => {
  it('has no agreement slips of the common kinds', () => {
    expect(agreementSlips(itCatalogue)).toEqual([]);
  });

  it('the check finds each kind of slip (it can fail)', () => {
    expect(
      agreementSlips({
        a: 'Vuoi eliminare questo inserzione?',
        b: 'Gestisci i tuoi offerte',
        c: 'Offerta accettato',
        d: 'Modifica la annuncio',
        e: 'Hai un nuovo recensione e un offerta',
        ok: "Questa inserzione, un'offerta, le tue recensioni, l'annuncio, offerta accettata",
        moderation: { kinds: { listing: 'annuncio', ad: 'inserzione' } },
        f: 'Segnala questo {{kind}}',
        g: 'Il tuo {{kind}} è visibile',
        g_ad: 'La tua inserzione è visibile',
      }),
    ).toEqual([
      'a: questo inserzione',
      'b: tuoi offerte',
      'c: Offerta accettato',
      'd: la annuncio',
      'e: nuovo recensione',
      'e: un offerta',
      'f (ad): questo inserzione',
    ]);
  });
});
