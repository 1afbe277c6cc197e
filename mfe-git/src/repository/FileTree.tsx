import { Box, Button, Text } from '@chakra-ui/react';
import { type GitTreeNode } from '@tessera/contracts';
import { GIT_PATH_DRAG_TYPE } from './git-texts.js';
import { useState, type DragEvent } from 'react';
import { useRepository } from './repository-context.js';

/** A file row carries its path when dragged (into the chat's Git Files zone). */
function onDragStart(event: DragEvent, path: string) {
  event.dataTransfer.setData(GIT_PATH_DRAG_TYPE, path);
  event.dataTransfer.setData('text/plain', path);
  event.dataTransfer.effectAllowed = 'copy';
}

function TreeNodes({ nodes, depth }: { nodes: GitTreeNode[]; depth: number }) {
  return (
    <Box as="ul" role="group" listStyleType="none" m="0" p="0">
      {nodes.map((node) => (node.type === 'directory' ? <Folder key={node.path} node={node} depth={depth} /> : <File key={node.path} node={node} depth={depth} />))}
    </Box>
  );
}

function Folder({ node, depth }: { node: GitTreeNode; depth: number }) {
  const [open, setOpen] = useState(true);
  return (
    <Box as="li" role="treeitem" aria-expanded={open}>
      <Button variant="ghost" size="xs" w="full" justifyContent="start" pl={`${depth * 12 + 4}px`} onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'} {node.name}
      </Button>
      {open && node.children && <TreeNodes nodes={node.children} depth={depth + 1} />}
    </Box>
  );
}

function File({ node, depth }: { node: GitTreeNode; depth: number }) {
  const selected = useRepository((s) => s.selected === node.path);
  const select = useRepository((s) => s.select);
  return (
    <Box as="li" role="treeitem" aria-selected={selected} draggable onDragStart={(e: DragEvent) => onDragStart(e, node.path)}>
      <Button
        variant={selected ? 'subtle' : 'ghost'}
        size="xs"
        w="full"
        justifyContent="start"
        pl={`${depth * 12 + 16}px`}
        title={node.path}
        onClick={() => void select(node.path)}
      >
        {node.name}
      </Button>
    </Box>
  );
}

/** Git Tree: the listed files as folders (spec 02 §2); rows select the file and can be dragged. */
export function FileTree() {
  const tree = useRepository((s) => s.tree);
  return (
    <Box as="nav" aria-label="Git Tree">
      <Text fontWeight="semibold" fontSize="sm" mb="1">
        Git Tree
      </Text>
      <Box role="tree" aria-label="Repository files">
        <TreeNodes nodes={tree} depth={0} />
      </Box>
    </Box>
  );
}
