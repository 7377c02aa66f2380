'use client';
// The workspace's folders as a tree beside its entries (GET /silo/v1/folders): choosing one lists
// that folder and everything below it; "All entries" lists everything again.
import { useMemo } from 'react';
import { folderLabel, folderTree, type FolderNode } from '@/lib/console/folder-tree';
import type { Folder } from '@/lib/schemas/records';

interface Props {
  folders: Folder[] | undefined;
  selected: string | undefined;
  onSelect(folder: string | undefined): void;
}

export function FolderTree({ folders, selected, onSelect }: Props) {
  const roots = useMemo(() => folderTree(folders ?? []), [folders]);
  const item = (n: FolderNode, depth: number) => (
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
        <span className="folder-name">{folderLabel(n.folder)}</span>
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
