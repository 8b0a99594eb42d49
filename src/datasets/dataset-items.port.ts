import type { Dataset } from './dataset';
import type { DatasetItem } from './queries/datasets.read-model';

/** What the features built on datasets read of them: a dataset, and how many items it held at a version. */
export abstract class DatasetItems {
  abstract get(datasetId: string): Dataset | undefined;

  /** How many items the dataset held at `version`. */
  abstract countAt(datasetId: string, version: number): number;

  /** An item the dataset holds, or held at an earlier version. */
  abstract itemEver(datasetId: string, itemId: string): DatasetItem | undefined;
}
