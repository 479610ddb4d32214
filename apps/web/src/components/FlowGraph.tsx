/**
 * A directed graph laid out left to right (dagre) and drawn with React Flow: inputs on the left,
 * what they feed on the right. Read-only; a node opens on click. The screens that draw one also
 * list the same nodes in a table, which is the keyboard and screen-reader path.
 */
import dagre from '@dagrejs/dagre';
import { Background, Controls, MarkerType, ReactFlow, type Edge, type Node } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useMemo } from 'react';

export interface FlowNode {
  id: string;
  title: string;
  /** A second line under the title. */
  note: string;
  /** Shown on hover: the full name. */
  hint?: string;
  /** Classes for the node's box (kind, state). */
  className?: string;
}

export interface FlowEdge {
  from: string;
  to: string;
}

const NODE_WIDTH = 220;
const NODE_HEIGHT = 56;

function layout(nodes: FlowNode[], edges: FlowEdge[]): { nodes: Node[]; edges: Edge[] } {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 24, ranksep: 72 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) g.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const edge of edges) g.setEdge(edge.from, edge.to);
  dagre.layout(g);
  return {
    nodes: nodes.map((node) => {
      const at = g.node(node.id);
      return {
        id: node.id,
        position: { x: at.x - NODE_WIDTH / 2, y: at.y - NODE_HEIGHT / 2 },
        data: {
          label: (
            <span title={node.hint ?? node.title}>
              <strong>{node.title}</strong>
              <br />
              <small>{node.note}</small>
            </span>
          ),
        },
        className: `flow-node ${node.className ?? ''}`.trim(),
        style: { width: NODE_WIDTH },
        sourcePosition: 'right',
        targetPosition: 'left',
      } as Node;
    }),
    edges: edges.map((edge) => ({
      id: `${edge.from}->${edge.to}`,
      source: edge.from,
      target: edge.to,
      markerEnd: { type: MarkerType.ArrowClosed },
    })),
  };
}

export function FlowGraph({
  label,
  nodes,
  edges,
  onOpen,
}: {
  /** Names the figure for assistive technology (say where the same graph is listed). */
  label: string;
  nodes: FlowNode[];
  edges: FlowEdge[];
  onOpen: (id: string) => void;
}) {
  const drawn = useMemo(() => layout(nodes, edges), [nodes, edges]);
  if (!drawn.nodes.length) return null;
  return (
    <figure className="flow-graph" aria-label={label}>
      <ReactFlow
        nodes={drawn.nodes}
        edges={drawn.edges}
        fitView
        nodesDraggable={false}
        nodesConnectable={false}
        nodesFocusable={false}
        edgesFocusable={false}
        proOptions={{ hideAttribution: true }}
        onNodeClick={(_, node) => onOpen(node.id)}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </figure>
  );
}
