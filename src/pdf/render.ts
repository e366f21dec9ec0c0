/** pdfmake set up once for the server: Roboto from the package's own folder, nothing else read or fetched. */
import { createRequire } from 'node:module';
import path from 'node:path';
import pdfmake from 'pdfmake';
import type { TDocumentDefinitions, TFontDictionary } from 'pdfmake/interfaces.js';

const require = createRequire(import.meta.url);
const robotoModule = require.resolve('pdfmake/fonts/Roboto.js');
const fontDir = path.dirname(robotoModule) + path.sep;

pdfmake.setFonts(require(robotoModule) as TFontDictionary);
// A document field (an image, a font name) must never make the process read other files or fetch a URL.
pdfmake.setLocalAccessPolicy((file) => path.resolve(file).startsWith(fontDir));
pdfmake.setUrlAccessPolicy(() => false);

export function renderPdf(doc: TDocumentDefinitions): Promise<Buffer> {
  const { footer } = doc;
  const breakable: TDocumentDefinitions = {
    ...doc,
    content: breakingLongWords(doc.content) as TDocumentDefinitions['content'],
    ...(typeof footer === 'function'
      ? { footer: (...page: Parameters<typeof footer>) => breakingLongWords(footer(...page)) as ReturnType<typeof footer> }
      : {}),
  };
  return pdfmake.createPdf(breakable).getBuffer();
}

/** A run of this many characters or more with no space: a reference, a name or a URL that could not otherwise wrap. */
const longWord = /\S{21,}/gu;
const zeroWidthSpace = '\u200B';
/** The keys whose values hold a document's text, directly or in the nodes below them (not styles, widths, images or canvases). */
const textKeys = new Set(['text', 'stack', 'columns', 'table', 'body', 'ul', 'ol']);

/**
 * The content with a zero-width space between the characters of every long
 * word, so that it may wrap. pdfmake sizes a '*' or 'auto' column (of a table
 * or of columns) to its longest word: an unbroken purchase-order number or a
 * long surname widened its column past the page's edge, where the rest of it
 * was cut off, or over the column beside it. The space prints nothing and is
 * not in the text a reader copies (pdftotext shows none).
 */
function breakingLongWords(node: unknown): unknown {
  if (typeof node === 'string') return node.replace(longWord, (word) => [...word].join(zeroWidthSpace));
  if (Array.isArray(node)) return node.map(breakingLongWords);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, textKeys.has(key) ? breakingLongWords(value) : value]));
}
