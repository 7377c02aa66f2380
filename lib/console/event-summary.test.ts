import { describe, expect, it } from 'vitest';
import { eventChanges, eventSummary } from './event-summary';

describe('an event record as a person reads it', () => {
  it('says what happened, with the names the record carries', () => {
    expect(
      eventSummary({ type: 'entry.created', version: null, data: { name: 'Invoice 1', key: 'INV-1', folder: 'sales', meta: {} } }),
    ).toBe('Entry “Invoice 1” created with key INV-1 in sales');
    expect(eventSummary({ type: 'file.stored', version: 3, data: { name: 'inv.xml', size: 4096 } })).toBe(
      'inv.xml version 3 stored (4.1\u00a0KB)',
    );
    expect(eventSummary({ type: 'file.created', version: null, data: { name: 'scan.pdf', size: 8, placeholder: true } })).toBe(
      'Placeholder for scan.pdf (8\u00a0B) made, waiting for its bytes',
    );
    expect(eventSummary({ type: 'file.restored', version: 3, data: { name: 'inv.xml', from: { version: 1 } } })).toBe(
      'inv.xml version 1 restored as version 3',
    );
    expect(
      eventSummary({ type: 'file.deleted', version: null, data: { whole: true, versions: [{ name: 'a.txt' }, { name: 'a.txt' }] } }),
    ).toBe('a.txt deleted with 2 versions');
    expect(eventSummary({ type: 'entry.deleted', version: null, data: { name: 'X', files: [{}] } })).toBe(
      'Entry “X” deleted with 1 file version',
    );
    expect(eventSummary({ type: 'key.revoked', version: null, data: { prefix: 'silo_live_AbCd' } })).toBe('API key silo_live_AbCd revoked');
    expect(
      eventSummary({
        type: 'auditor_key.created',
        version: null,
        data: { prefix: 'silo_audit_AbCd…', from: '2025-01-01', to: '2026-01-01', note: 'KPMG' },
      }),
    ).toBe('Auditor key silo_audit_AbCd… made for 2025-01-01 to 2026-01-01 (excl.): “KPMG”');
    expect(eventSummary({ type: 'auditor_key.used', version: null, data: { method: 'GET', path: '/silo/v1/entries' } })).toBe(
      'Auditor key used: GET /silo/v1/entries',
    );
    expect(eventSummary({ type: 'some.future' as 'entry.created', version: null, data: {} })).toBe('some.future');
  });

  it('says what became of a webhook endpoint, and why Silo disabled one', () => {
    const updated = (after: Record<string, unknown>) =>
      eventSummary({ type: 'webhook.updated', version: null, data: { webhook_id: 'w', before: {}, after } });
    expect(eventSummary({ type: 'webhook.created', version: null, data: { url: 'https://erp.example/h' } })).toBe(
      'Webhook endpoint https://erp.example/h added',
    );
    expect(updated({ disabled: true, disabled_reason: 'gone' })).toBe('Webhook endpoint disabled: it answered 410');
    expect(updated({ disabled: true, disabled_reason: 'failing' })).toBe('Webhook endpoint disabled: failing for 5 days');
    expect(updated({ disabled: true, disabled_reason: 'manual' })).toBe('Webhook endpoint disabled');
    expect(updated({ disabled: false, disabled_reason: null })).toBe('Webhook endpoint enabled again');
    expect(updated({ types: ['*'] })).toBe('Webhook endpoint edited');
    expect(eventSummary({ type: 'webhook.secret_rotated', version: null, data: {} })).toMatch(/^Webhook secret rotated/);
  });

  it('lists an edit field by field, before → after, meta pair by pair', () => {
    expect(eventChanges({ data: { before: { desc: '' }, after: { desc: 'corrected' } } })).toEqual([
      { field: 'desc', before: '“”', after: '“corrected”' },
    ]);
    expect(
      eventChanges({
        data: {
          before: { key: null, meta: { a: '1', b: '2' }, private: false },
          after: { key: 'K', meta: { a: '1', b: '3', c: 'new' }, private: true },
        },
      }),
    ).toEqual([
      { field: 'key', before: 'none', after: '“K”' },
      { field: 'meta.b', before: '“2”', after: '“3”' },
      { field: 'meta.c', before: 'none', after: '“new”' },
      { field: 'private', before: 'no', after: 'yes' },
    ]);
    expect(eventChanges({ data: { name: 'no edit' } })).toEqual([]);
  });
});
