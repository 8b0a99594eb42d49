import { graphlib, layout, type EdgeLabel, type GraphLabel, type NodeLabel } from '@dagrejs/dagre';
import { NODE_HEIGHT, NODE_WIDTH } from './node-size';

/** A step to place: its id and the ids of the steps it needs (each an edge into it). */
export interface LayoutInput {
  id: string;
  needs: string[];
}

export interface PlacedNode {
  id: string;
  /** The node's top-left corner. */
  x: number;
  y: number;
}

export interface PlacedEdge {
  from: string;
  to: string;
  /** The edge's path as an SVG `d` attribute, from the needed step to the step that needs it. */
  path: string;
}

export interface GraphLayout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

/**
 * Places the steps left to right with dagre's layered layout: a step stands right of every step it needs, and the
 * edges bend around the nodes between. Needs that name no step given here are left out.
 */
export function layOut(steps: LayoutInput[]): GraphLayout {
  const graph = new graphlib.Graph<GraphLabel, NodeLabel, EdgeLabel>();
  graph.setGraph({ rankdir: 'LR', nodesep: 20, ranksep: 56, marginx: 8, marginy: 8 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const step of steps) graph.setNode(step.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  const known = new Set(steps.map((step) => step.id));
  for (const step of steps) {
    for (const need of step.needs) if (known.has(need) && need !== step.id) graph.setEdge(need, step.id);
  }
  layout(graph);

  const nodes = steps.map((step) => {
    const { x = 0, y = 0 } = graph.node(step.id);
    return { id: step.id, x: x - NODE_WIDTH / 2, y: y - NODE_HEIGHT / 2 };
  });
  const edges = graph.edges().map(({ v, w }) => {
    const points = graph.edge(v, w).points ?? [];
    const path = points.map((point, i) => `${i === 0 ? 'M' : 'L'}${round(point.x)},${round(point.y)}`).join(' ');
    return { from: v, to: w, path };
  });
  const { width = 0, height = 0 } = graph.graph();
  return { width: Math.ceil(width), height: Math.ceil(height), nodes, edges };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
