// The category a dropped file starts with: a PDF or an XML is a rendering of the document
// (format), anything else supports it (attachment). The user may still change it.
import type { UploadOptions } from './queue';

export function suggestCategory(file: { name: string; type: string }): UploadOptions['category'] {
  const type = file.type.split(';')[0].trim().toLowerCase();
  if (type === 'application/pdf' || /\.pdf$/i.test(file.name)) return 'format';
  if (type.endsWith('/xml') || type.endsWith('+xml') || /\.xml$/i.test(file.name))
    return type === 'image/svg+xml' ? 'attachment' : 'format';
  return 'attachment';
}
