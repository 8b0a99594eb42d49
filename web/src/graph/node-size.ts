/** The size of a step's node in the drawn graph, in pixels: room for three short lines. */
export const NODE_WIDTH = 176;
export const NODE_HEIGHT = 64;
