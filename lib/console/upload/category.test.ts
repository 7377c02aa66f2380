import { describe, expect, it } from 'vitest';
import { suggestCategory } from './category';

describe('suggestCategory', () => {
  it('suggests format for PDF and XML, by type or by name, and attachment for anything else', () => {
    expect(suggestCategory({ name: 'invoice.pdf', type: 'application/pdf' })).toBe('format');
    expect(suggestCategory({ name: 'scan', type: 'application/pdf' })).toBe('format');
    expect(suggestCategory({ name: 'INVOICE.PDF', type: '' })).toBe('format');
    expect(suggestCategory({ name: 'ubl.xml', type: 'application/xml' })).toBe('format');
    expect(suggestCategory({ name: 'ubl', type: 'text/xml; charset=utf-8' })).toBe('format');
    expect(suggestCategory({ name: 'x', type: 'application/vnd.cii+xml' })).toBe('format');
    expect(suggestCategory({ name: 'logo.svg', type: 'image/svg+xml' })).toBe('attachment');
    expect(suggestCategory({ name: 'photo.jpg', type: 'image/jpeg' })).toBe('attachment');
    expect(suggestCategory({ name: 'notes.txt', type: 'text/plain' })).toBe('attachment');
  });
});
