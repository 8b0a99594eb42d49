/** What an agent's definition checks of its scorers: that each names an active scorer. The scorers module answers. */
export abstract class ScorerNames {
  abstract hasActiveScorerNamed(name: string): boolean;
}
