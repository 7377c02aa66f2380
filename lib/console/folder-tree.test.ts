import { describe, expect, it } from 'vitest';
import { ancestorFolders, folderLabel, parentFolder } from './folder-tree';
import { jsonToMeta, metaToRows, rowsToMeta } from './meta';

describe('the folder tree', () => {
  it("puts each folder under the part before its last slash, as the API's ?parent= does (migration search_and_folder_counts)", () => {
    const folders = ['a', 'a b', 'a/', 'a//b', 'a/b', 'a/b/c', '/x', '//y', 'z'];
    expect(folders.map(parentFolder)).toEqual(['', '', 'a', 'a/', 'a', 'a/b', '', '/', '']);
    expect(ancestorFolders('a/b/c')).toEqual(['a', 'a/b']);
    expect(ancestorFolders('a//b')).toEqual(['a', 'a/']);
    expect(ancestorFolders('top')).toEqual([]);
    expect(['a/b/c', 'a/', '/x', 'top'].map(folderLabel)).toEqual(['c', 'a/', 'x', 'top']);
  });
});

describe('meta as rows or JSON', () => {
  it('reads rows (blank ones ignored) and refuses a value without a key or a key twice', () => {
    expect(
      rowsToMeta([
        { key: ' a ', value: '1' },
        { key: '', value: '' },
        { key: 'b', value: '' },
      ]),
    ).toEqual({ a: '1', b: '' });
    expect(() => rowsToMeta([{ key: '', value: 'v' }])).toThrow('has no key');
    expect(() =>
      rowsToMeta([
        { key: 'a', value: '1' },
        { key: 'a ', value: '2' },
      ]),
    ).toThrow('appears twice');
    const odd = JSON.parse('{"__proto__": "p", "x": "y"}');
    expect(JSON.stringify(rowsToMeta(metaToRows(odd)))).toBe('{"__proto__":"p","x":"y"}');
  });

  it('reads a JSON object of strings and nothing else', () => {
    expect(jsonToMeta('{"a": "1"}')).toEqual({ a: '1' });
    expect(jsonToMeta('  ')).toEqual({});
    for (const bad of ['{', '[]', 'null', '"s"', '{"a": 1}']) expect(() => jsonToMeta(bad)).toThrow(/Meta/);
  });
});
