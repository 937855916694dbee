/**
 * Streaming reads of tagged statements (OFX 1.x SGML, OFX 2.x XML, CAMT.053) with
 * htmlparser2: fed in chunks with a pause between them, entities never expanded beyond the
 * five XML ones and character references (a DTD's entities are not read), nesting and field
 * length bounded, so a hostile file costs time linear in its size and no more memory.
 */
import { Parser } from 'htmlparser2';
import type { Steps } from '../csv/steps';

/** Characters fed to the parser between two pauses. */
export const MARKUP_CHUNK = 64 * 1024;
/** Deepest nesting read; OFX and CAMT need about 12 levels. */
export const MAX_DEPTH = 100;
/** Longest text of one element. */
export const MAX_FIELD_CHARS = 64 * 1024;

export interface MarkupHandler {
  /** `name` is the local name (namespace prefix dropped), upper-cased for OFX-style matching by the caller if needed. */
  open: (name: string, attributes: Record<string, string>, offset: number) => void;
  /** The element's own text (trimmed), ended by its closing tag, the next tag or an implied close. */
  close: (name: string, text: string) => void;
}

export class MarkupError extends Error {}

/** Local name of an element: `camt:Ntry` -> `Ntry`. */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon >= 0 ? name.slice(colon + 1) : name;
}

/**
 * Feeds `text` (from `start`) to a tolerant parser in chunks, calling the handler for
 * each element. Element text is what lies between the opening tag and the next tag, so
 * SGML leaves (`<TRNAMT>-1.00` with no closing tag) and XML leaves read alike.
 * Throws MarkupError for shapes no statement has (deep nesting, huge fields, entity declarations).
 */
export function* readMarkup(text: string, start: number, handler: MarkupHandler): Steps<void> {
  if (/<!ENTITY/i.test(text))
    throw new MarkupError('The file declares XML entities; statements never do, so it was refused.');
  // Per open element: its own text so far, and whether a child has opened (text after that is not its own).
  const texts: string[] = [];
  const hasChild: boolean[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (texts.length >= MAX_DEPTH)
          throw new MarkupError(`The file nests elements more than ${MAX_DEPTH} levels deep; statements never do.`);
        if (hasChild.length > 0) hasChild[hasChild.length - 1] = true;
        texts.push('');
        hasChild.push(false);
        handler.open(localName(name), attributes, start + parser.startIndex);
      },
      ontext(data) {
        const top = texts.length - 1;
        const open = texts[top];
        if (open === undefined || hasChild[top]) return;
        if (open.length + data.length > MAX_FIELD_CHARS)
          throw new MarkupError(
            `A field of the file is longer than ${MAX_FIELD_CHARS / 1024} KB; statements' fields are far shorter.`,
          );
        texts[top] = open + data;
      },
      onclosetag(name) {
        const value = (texts.pop() ?? '').trim();
        hasChild.pop();
        handler.close(localName(name), value);
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeSelfClosing: true },
  );
  for (let at = start; at < text.length; at += MARKUP_CHUNK) {
    parser.write(text.slice(at, at + MARKUP_CHUNK));
    yield;
  }
  parser.end();
}

/**
 * Counts lines up to increasing offsets in one pass over the text: the next line break is looked
 * for only once the last one is passed (a file on one line is not searched to its end at every offset).
 */
export function lineCounter(text: string): (offset: number) => number {
  let at = 0;
  let line = 1;
  let next = text.indexOf('\n');
  return (offset: number) => {
    if (offset < at) {
      line = 1;
      next = text.indexOf('\n');
    }
    while (next >= 0 && next < offset) {
      line += 1;
      next = text.indexOf('\n', next + 1);
    }
    at = offset;
    return line;
  };
}
