// GET /silo/v1/folders' flat list as a tree: a folder's parent is the part before its last `/`.
import type { Folder } from '../schemas/records';

export interface FolderNode extends Folder {
  children: FolderNode[];
}

/** The list has every ancestor of a folder with entries, so each parent is in it; order is kept. */
export function folderTree(folders: Folder[]): FolderNode[] {
  const nodes = new Map(folders.map((f) => [f.folder, { ...f, children: [] as FolderNode[] }]));
  const roots: FolderNode[] = [];
  for (const n of nodes.values()) {
    const cut = n.folder.lastIndexOf('/');
    const parent = cut > 0 ? nodes.get(n.folder.slice(0, cut)) : undefined;
    (parent ? parent.children : roots).push(n);
  }
  return roots;
}

/** The name a tree shows for a folder: its last part (the whole folder when that is empty, as for `a/`). */
export const folderLabel = (folder: string) => folder.slice(folder.lastIndexOf('/') + 1) || folder;
