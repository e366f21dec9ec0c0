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
  return pdfmake.createPdf(doc).getBuffer();
}
