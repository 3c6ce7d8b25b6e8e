/** The data file cannot be read, is not a sandbox state file, or cannot be written. Always names the file. */
export class FileStoreError extends Error {
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'FileStoreError';
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function corrupt(file: string, why: string, cause?: unknown): FileStoreError {
  return new FileStoreError(
    file,
    `sandbox data file ${file} is not a valid sandbox state file (${why}); it was left untouched: repair it, or move it away to start empty`,
    cause === undefined ? undefined : { cause },
  );
}
