/**
 * The text of a file a user hands in (a bank statement, a CSV from other
 * software): UTF-8, with or without a byte order mark; else, when its bytes
 * are not UTF-8, Windows-1252, the code page Excel and some UK banks'
 * exports (Nationwide's) are still written in, where £ is the byte A3.
 * Node's own windows-1252 decoder reads 80–9F as ISO-8859-1 control
 * characters, so those 27 are mapped here (€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ).
 * A file that starts with a UTF-16 byte order mark (Excel's "Unicode Text",
 * some banks' exports) is read as UTF-16 of that order.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes 80–9F of Windows-1252; the five it leaves undefined keep their own code point. */
const high = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8dŽ\x8f\x90‘’“”•–—˜™š›œ\x9džŸ';

export function windows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\x80-\x9f]/g, (c) => high[c.charCodeAt(0) - 0x80]!);
}

const utf16 = { le: new TextDecoder('utf-16le'), be: new TextDecoder('utf-16be') };

export function fileText(bytes: Uint8Array): string {
  // The decoders drop the byte order mark, as UTF-8's does.
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return utf16.le.decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16.be.decode(bytes);
  try {
    return utf8.decode(bytes);
  } catch {
    return windows1252(bytes);
  }
}
