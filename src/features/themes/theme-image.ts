const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

export type ImageCheck = { ok: true; base64: string } | { ok: false; reason: string };

/**
 * Accepts plain base64 or a `data:image/…;base64,` URL; the content must really be a PNG or JPEG (magic
 * bytes, not the declared type) and at most `maxBytes` once decoded. Stored as bare base64.
 */
export function checkImage(input: string, maxBytes: number): ImageCheck {
  const match = /^data:image\/(png|jpe?g);base64,/i.exec(input);
  const base64 = (match ? input.slice(match[0].length) : input).replace(/\s+/g, '');
  if (base64 === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || base64.length % 4 !== 0) {
    return { ok: false, reason: 'is not valid base64' };
  }
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > maxBytes) return { ok: false, reason: `is larger than ${maxBytes / 1024} KiB` };
  const starts = (magic: number[]) => magic.every((b, i) => bytes[i] === b);
  if (!starts(PNG) && !starts(JPEG)) return { ok: false, reason: 'is neither a PNG nor a JPEG image' };
  return { ok: true, base64 };
}
