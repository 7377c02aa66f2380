'use client';
// The workspace's folders as a tree beside its entries, loaded a level at a time (GET
// /silo/v1/folders?parent=): the top level first, a folder's children when it is opened, each level
// in pages ("More folders"). Choosing a folder lists it and everything below it; "All entries"
// lists everything again. The chosen folder's ancestors open by themselves (a link or Back).
import { useEffect, useState } from 'react';
import { ancestorFolders, folderLabel } from '@/lib/console/folder-tree';
import { useFolderLevel } from '@/lib/console/hooks/entries';
import type { Folder } from '@/lib/schemas/records';

interface Props {
  ownerId: string;
  sandbox: boolean;
  selected: string | undefined;
  onSelect(folder: string | undefined): void;
}

/** What every level of one tree shares. */
interface Tree extends Props {
  open: ReadonlySet<string>;
  toggle(folder: string): void;
}

export function FolderTree(props: Props) {
  const { selected } = props;
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(ancestorFolders(selected ?? '')));
  useEffect(() => {
    if (selected) setOpen((o) => (ancestorFolders(selected).every((a) => o.has(a)) ? o : new Set([...o, ...ancestorFolders(selected)])));
  }, [selected]);
  const toggle = (folder: string) =>
    setOpen((o) => {
      const n = new Set(o);
      if (!n.delete(folder)) n.add(folder);
      return n;
    });
  const tree: Tree = { ...props, open, toggle };
  return (
    <nav className="folder-tree" aria-label="Folder tree">
      <ul>
        <li>
          <button type="button" className="folder-item" aria-pressed={selected === undefined} onClick={() => props.onSelect(undefined)}>
            <span className="folder-name">All entries</span>
          </button>
        </li>
        <FolderLevel tree={tree} parent="" depth={0} />
      </ul>
    </nav>
  );
}

/** The folders directly in `parent`, page by page. */
function FolderLevel({ tree, parent, depth }: { tree: Tree; parent: string; depth: number }) {
  const level = useFolderLevel(tree.ownerId, tree.sandbox, parent);
  const folders = level.data?.pages.flatMap((p) => p.list);
  const indent = { paddingLeft: `${0.5 + depth * 0.85}rem` };
  return (
    <>
      {folders?.map((f) => (
        <FolderItem key={f.folder} tree={tree} folder={f} depth={depth} />
      ))}
      {level.isPending && (
        <li className="muted folder-none" style={indent}>
          Loading…
        </li>
      )}
      {parent === '' && folders?.length === 0 && <li className="muted folder-none">No folders yet</li>}
      {level.hasNextPage && (
        <li>
          <button
            type="button"
            className="folder-item folder-more"
            style={indent}
            disabled={level.isFetchingNextPage}
            onClick={() => level.fetchNextPage()}
          >
            {level.isFetchingNextPage ? 'Loading…' : parent === '' ? 'More folders' : `More folders in ${folderLabel(parent)}`}
          </button>
        </li>
      )}
    </>
  );
}

function FolderItem({ tree, folder: f, depth }: { tree: Tree; folder: Folder; depth: number }) {
  const open = f.subfolders && tree.open.has(f.folder);
  return (
    <li>
      <div className="folder-row" style={{ paddingLeft: `${depth * 0.85}rem` }}>
        {f.subfolders ? (
          <button
            type="button"
            className="folder-toggle"
            aria-expanded={open}
            aria-label={`${open ? 'Close' : 'Open'} ${f.folder}`}
            onClick={() => tree.toggle(f.folder)}
          >
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span className="folder-toggle" aria-hidden="true" />
        )}
        <button
          type="button"
          className="folder-item"
          aria-pressed={tree.selected === f.folder}
          title={f.folder}
          aria-label={`${f.folder}, ${f.entries} ${f.entries === 1 ? 'entry' : 'entries'}`}
          onClick={() => tree.onSelect(f.folder)}
        >
          <span className="folder-name">{folderLabel(f.folder)}</span>
          <span className="folder-count">{f.entries}</span>
        </button>
      </div>
      {open && (
        <ul>
          <FolderLevel tree={tree} parent={f.folder} depth={depth + 1} />
        </ul>
      )}
    </li>
  );
}
