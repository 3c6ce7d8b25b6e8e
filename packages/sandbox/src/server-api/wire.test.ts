import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { storedGzip } from './wire.ts';

describe('storedGzip', () => {
  // Sizes around a stored block's limit (65,535 B), none, and a search page's several blocks.
  it.each([0, 1, 2_900, 65_535, 65_536, 200_000])('is a gzip member zlib reads back as the same %i bytes', (size) => {
    const data = Buffer.from(Array.from({ length: size }, (_, i) => String.fromCharCode(32 + ((i * 7919) % 90))).join(''));
    expect(gunzipSync(storedGzip(data)).equals(data)).toBe(true);
  });

  it('carries UTF-8 text as it is', () => {
    const xml = Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<name>Zoë Ł. 山田</name>\n');
    expect(gunzipSync(storedGzip(xml)).toString('utf8')).toBe(xml.toString('utf8'));
  });

  it('ends with the CRC and length that gunzip checks', () => {
    const gzipped = storedGzip(Buffer.from('<a>1</a>'));
    gzipped.writeUInt8(gzipped.readUInt8(gzipped.length - 8) ^ 1, gzipped.length - 8);
    expect(() => gunzipSync(gzipped)).toThrow();
  });
});
