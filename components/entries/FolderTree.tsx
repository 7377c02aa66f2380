'use client';
// The workspace's folders as a tree beside its entries (GET /silo/v1/folders): choosing one lists
// that folder and everything below it; "All entries" lists everything again.
import { useMemo } from 'react';
import type { Folder } from '@/lib/schemas/records';

interface Node {
  folder: string;
  entries: number;
  children: Node[];
}

/** A folder's parent is the part before its last `/` (none for a top-level folder). */
export function folderTree(folders: Folder[]): Node[] {
  const nodes = new Map(folders.map((f) => [f.folder, { ...f, children: [] as Node[] }]));
  const roots: Node[] = [];
  for (const n of nodes.values()) {
    const cut = n.folder.lastIndexOf('/');
    const parent = cut > 0 ? nodes.get(n.folder.slice(0, cut)) : undefined;
    (parent ? parent.children : roots).push(n);
  }
  return roots;
}

interface Props {
  folders: Folder[] | undefined;
  selected: string | undefined;
  onSelect(folder: string | undefined): void;
}

export function FolderTree({ folders, selected, onSelect }: Props) {
  const roots = useMemo(() => folderTree(folders ?? []), [folders]);
  const item = (n: Node, depth: number) => (
    <li key={n.folder}>
      <button
        type="button"
        className="folder-item"
        aria-pressed={selected === n.folder}
        title={n.folder}
        aria-label={`${n.folder}, ${n.entries} ${n.entries === 1 ? 'entry' : 'entries'}`}
        style={{ paddingLeft: `${0.5 + depth * 0.85}rem` }}
        onClick={() => onSelect(n.folder)}
      >
        <span className="folder-name">{n.folder.slice(n.folder.lastIndexOf('/') + 1) || n.folder}</span>
        <span className="folder-count">{n.entries}</span>
      </button>
      {n.children.length > 0 && <ul>{n.children.map((c) => item(c, depth + 1))}</ul>}
    </li>
  );
  return (
    <nav className="folder-tree" aria-label="Folder tree">
      <ul>
        <li>
          <button type="button" className="folder-item" aria-pressed={selected === undefined} onClick={() => onSelect(undefined)}>
            <span className="folder-name">All entries</span>
          </button>
        </li>
        {roots.map((n) => item(n, 0))}
      </ul>
      {folders && folders.length === 0 && <p className="muted folder-none">No folders yet</p>}
    </nav>
  );
}
