import { type JupyterFrontEndPlugin } from '@jupyterlab/application';

import { IReviewStore } from '../tokens';
import { ReviewStore } from './storage';

/** Provides the review store: the threads stored in notebook metadata. */
export const reviewStorePlugin: JupyterFrontEndPlugin<IReviewStore> = {
  id: 'jupyterlite-webmcp:review-store',
  description:
    'Reads the review threads stored in notebooks, as the agent may see them.',
  autoStart: true,
  provides: IReviewStore,
  activate: (): IReviewStore => new ReviewStore()
};
