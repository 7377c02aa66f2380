// The folder tree's shape: a folder's parent is the part before its last `/` (GET /silo/v1/folders?parent=).

/** The folder a folder sits in: '' at the top level ('a/b' → 'a', '/a' → '', 'a/' → 'a'). */
export const parentFolder = (folder: string) => (folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '');

/** The folders a folder sits in, outermost first ('a/b/c' → 'a', 'a/b'): what the tree opens to show it. */
export function ancestorFolders(folder: string): string[] {
  const out: string[] = [];
  for (let p = parentFolder(folder); p !== ''; p = parentFolder(p)) out.unshift(p);
  return out;
}

/** The name a tree shows for a folder: its last part (the whole folder when that is empty, as for `a/`). */
export const folderLabel = (folder: string) => folder.slice(folder.lastIndexOf('/') + 1) || folder;
