/**
 * How MIME values read as text, shared by the output serializer and the
 * output fingerprint. Pure: no JupyterLab import.
 */

/** A MIME value as text: strings as-is, multi-line arrays joined. */
export function multiline(value: unknown): string | undefined {
  if (typeof value === 'string') {
    return value;
  }
  if (Array.isArray(value) && value.every(item => typeof item === 'string')) {
    return value.join('');
  }
  return undefined;
}

/** Any value as text, so nothing is lost for a malformed field. */
export function textOf(value: unknown): string {
  return multiline(value) ?? JSON.stringify(value) ?? '';
}

/** The MIME type without parameters, lower-cased. */
export function baseMime(mimeType: string): string {
  return mimeType.split(';')[0].trim().toLowerCase();
}

/** Whether a MIME type carries JSON (`application/json`, any `+json`). */
export function isJsonMime(mime: string): boolean {
  return mime === 'application/json' || mime.endsWith('+json');
}
