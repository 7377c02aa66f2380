import { describe, expect, it } from 'vitest';
import { filterFromParams, paramsWithFilter } from './entry-filter-url';

describe('the entry filter in the URL', () => {
  it('round-trips every filter, keeping other parameters', () => {
    const f = { sandbox: true, folder: 'sales/2026', q: 'Acme & co', key: 'INV-1%' };
    const params = paramsWithFilter(new URLSearchParams('tab=entries'), f);
    expect(params.toString()).toBe('tab=entries&folder=sales%2F2026&q=Acme+%26+co&key=INV-1%25&env=sandbox');
    expect(filterFromParams(new URLSearchParams(params.toString()))).toEqual(f);
  });

  it('round-trips the invoice fact filters under the API names', () => {
    const f = {
      sandbox: false,
      folder: undefined,
      q: undefined,
      key: 'k',
      facts: { seller_vat: 'DE123', issued_from: '2026-01-01', currency: 'EUR' },
    };
    const params = paramsWithFilter(new URLSearchParams(''), f);
    expect(params.toString()).toBe('key=k&seller_vat=DE123&currency=EUR&issued_from=2026-01-01');
    expect(filterFromParams(params)).toEqual(f);
    expect(paramsWithFilter(params, { sandbox: false }).toString()).toBe('');
  });

  it('leaves out what is not chosen; an empty folder is still a folder', () => {
    expect(paramsWithFilter(new URLSearchParams('q=old&env=sandbox'), { sandbox: false }).toString()).toBe('');
    expect(filterFromParams(new URLSearchParams(''))).toEqual({ sandbox: false, folder: undefined, q: undefined, key: undefined });
    expect(filterFromParams(new URLSearchParams('folder=')).folder).toBe('');
    expect(filterFromParams(new URLSearchParams('q=&key=')).q).toBeUndefined();
  });
});
