// The one multipart/form-data body the SDK sends (documentUpload.create): form fields and one file part, each
// `--boundary\r\nheaders\r\n\r\ncontent\r\n`, closed by `--boundary--`. Enough to read what it sends; not a general parser.

export interface MultipartFile {
  name: string;
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: MultipartFile[];
}

/** The boundary of a `multipart/form-data; boundary=...` content type; null when there is none. */
export function multipartBoundary(contentType: string | undefined): string | null {
  const match = /^multipart\/form-data;.*\bboundary="?([^";]+)"?/i.exec(contentType ?? '');
  return match?.[1] ?? null;
}

export function parseMultipart(body: Buffer, boundary: string): MultipartBody {
  const delimiter = Buffer.from(`--${boundary}`);
  const parsed: MultipartBody = { fields: {}, files: [] };
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const partStart = start + delimiter.length;
    // `--` after the delimiter closes the body.
    if (body.subarray(partStart, partStart + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, partStart);
    if (next < 0) break;
    // The part sits between the delimiter's line break and the line break before the next delimiter.
    const part = body.subarray(partStart + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd >= 0) addPart(parsed, part.subarray(0, headerEnd).toString('utf8'), part.subarray(headerEnd + 4));
    start = next;
  }
  return parsed;
}

function addPart(parsed: MultipartBody, headers: string, content: Buffer): void {
  const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
  const name = /\bname="([^"]*)"/.exec(disposition)?.[1];
  if (name === undefined) return;
  const filename = /\bfilename="([^"]*)"/.exec(disposition)?.[1];
  if (filename === undefined) {
    parsed.fields[name] = content.toString('utf8');
    return;
  }
  const contentType = /content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream';
  parsed.files.push({ name, filename, contentType, content });
}
