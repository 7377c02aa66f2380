import { describe, expect, it } from 'vitest';
import { activityFilterFromParams, paramsWithActivityFilter } from './activity-filter-url';

describe('the activity filter in the URL', () => {
  it('round-trips type, entry and environment, keeping other parameters', () => {
    const f = { sandbox: true, type: 'file.updated', entry: '0b9d4a52-5c1e-4f4e-9d3a-6a2f0c1b7e21' };
    const params = paramsWithActivityFilter(new URLSearchParams('tab=activity&q=acme'), f);
    expect(params.toString()).toBe('tab=activity&q=acme&type=file.updated&entry=0b9d4a52-5c1e-4f4e-9d3a-6a2f0c1b7e21&env=sandbox');
    expect(activityFilterFromParams(params)).toEqual(f);
    expect(paramsWithActivityFilter(params, { sandbox: false }).toString()).toBe('tab=activity&q=acme');
  });

  it('leaves out a type the catalogue does not have and an entry that is no id', () => {
    expect(activityFilterFromParams(new URLSearchParams('type=file.eaten&entry=nope'))).toEqual({
      sandbox: false,
      type: undefined,
      entry: undefined,
    });
    expect(activityFilterFromParams(new URLSearchParams('entry=0B9D4A52-5C1E-4F4E-9D3A-6A2F0C1B7E21')).entry).toBe(
      '0b9d4a52-5c1e-4f4e-9d3a-6a2f0c1b7e21',
    );
  });
});
