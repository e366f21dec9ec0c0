/**
 * Mail domains that anyone can have an address at. Two contacts with
 * addresses at one of these are no more likely to be one business than any
 * two strangers, so these domains are never an identity key; a company's own
 * domain (acme.co.uk) is. Compared in lower case, without a leading "www.".
 */
export const genericMailDomains: ReadonlySet<string> = new Set([
  // Google, Microsoft, Yahoo, Apple, AOL
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'outlook.co.uk',
  'hotmail.com',
  'hotmail.co.uk',
  'hotmail.ie',
  'hotmail.fr',
  'live.com',
  'live.co.uk',
  'live.ie',
  'msn.com',
  'windowslive.com',
  'yahoo.com',
  'yahoo.co.uk',
  'yahoo.ie',
  'ymail.com',
  'rocketmail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'aol.co.uk',
  'aim.com',
  // UK broadband providers' mailboxes
  'btinternet.com',
  'btopenworld.com',
  'btconnect.com',
  'btclick.com',
  'talk21.com',
  'sky.com',
  'virginmedia.com',
  'virgin.net',
  'ntlworld.com',
  'blueyonder.co.uk',
  'talktalk.net',
  'tiscali.co.uk',
  'plus.com',
  'plus.net',
  'tesco.net',
  'zen.co.uk',
  'supanet.com',
  'fsmail.net',
  'o2.co.uk',
  'orange.net',
  'wanadoo.co.uk',
  'freeserve.co.uk',
  'lineone.net',
  'madasafish.com',
  // Irish providers' mailboxes
  'eircom.net',
  'eir.ie',
  // Free mail services
  'protonmail.com',
  'protonmail.ch',
  'proton.me',
  'pm.me',
  'gmx.com',
  'gmx.co.uk',
  'gmx.net',
  'mail.com',
  'email.com',
  'zoho.com',
  'zohomail.eu',
  'yandex.com',
  'tutanota.com',
  'tuta.io',
  'fastmail.com',
  'fastmail.fm',
  'hushmail.com',
  'mail.ru',
  'qq.com',
  '163.com',
]);

/** Whether a mail domain (lower case) is a generic one: mail.yahoo.com and yahoo.com alike. */
export function isGenericMailDomain(domain: string): boolean {
  const d = domain.replace(/^www\./, '');
  if (genericMailDomains.has(d)) return true;
  const dot = d.indexOf('.');
  return dot > 0 && genericMailDomains.has(d.slice(dot + 1));
}
